;;; emacs_test.el --- End-to-end test: Emacs with editors/emacs and ppn-ls  -*- lexical-binding: t; -*-

;; Run from the repository root by tests/e2e/run-emacs.sh:
;;   emacs --batch -l tests/e2e/emacs_test.el
;; with the ppn-ls to test first on PATH.  Loads editors/emacs/ppn-ls.el, opens files of
;; each notation and drives Eglot and Flymake as a user's commands would.  Batch Emacs runs
;; no idle timers, so the test sends Eglot's pending changes and starts Flymake itself.
;; Prints one line per check and "N passed, M failed"; exits 1 on a failure.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar ppn-test-root
  (expand-file-name "../.." (file-name-directory (or load-file-name buffer-file-name))))
(add-to-list 'load-path (expand-file-name "editors/emacs" ppn-test-root))
(require 'ppn-ls)
(require 'eglot)
(require 'flymake)
(require 'xref)
(require 'imenu)

(defvar ppn-test-passed 0)
(defvar ppn-test-failed 0)
(defvar ppn-test-dir (make-temp-file "ppn-emacs-test-" t))

(defun ppn-test-check (name ok &optional detail)
  "Count and print the check NAME, passed when OK (else print DETAIL)."
  (if ok
      (progn (cl-incf ppn-test-passed) (princ (format "ok   %s\n" name)))
    (cl-incf ppn-test-failed)
    (princ (format "FAIL %s%s\n" name (if detail (format ": %S" detail) ""))))
  ok)

(defun ppn-test-wait (predicate &optional seconds)
  "Let the server's messages in until PREDICATE holds or SECONDS (15) pass."
  (let ((deadline (+ (float-time) (or seconds 15)))
        (result nil))
    (while (and (not (setq result (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    result))

(defun ppn-test-open (name text)
  "Write TEXT to the file NAME in the scratch folder and visit it."
  (let ((file (expand-file-name name ppn-test-dir)))
    (with-temp-file file (insert text))
    (find-file file)
    (font-lock-ensure)
    (current-buffer)))

(defun ppn-test-face-at (text &optional offset)
  "The face of the first occurrence of TEXT (at OFFSET chars into it)."
  (save-excursion
    (goto-char (point-min))
    (when (search-forward text nil t)
      (let ((face (get-text-property (+ (match-beginning 0) (or offset 0)) 'face)))
        (if (listp face) (car face) face)))))

(defun ppn-test-goto (text &optional offset)
  "Put point on the first occurrence of TEXT (OFFSET chars into it)."
  (goto-char (point-min))
  (search-forward text)
  (goto-char (+ (match-beginning 0) (or offset 0))))

(defun ppn-test-line (number)
  "The text of line NUMBER."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- number))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun ppn-test-refresh-diagnostics ()
  "What Emacs does when idle: send the pending changes, run Flymake."
  (eglot--signal-textDocument/didChange)
  (flymake-start))

(defun ppn-test-diagnostics-where (predicate)
  "Wait for Flymake's diagnostics to satisfy PREDICATE; return them."
  (ppn-test-refresh-diagnostics)
  (ppn-test-wait (lambda () (funcall predicate (flymake-diagnostics))))
  (flymake-diagnostics))

(defun ppn-test-diagnostic-lines (diagnostics)
  "Line and message of each of DIAGNOSTICS."
  (mapcar (lambda (d)
            (cons (line-number-at-pos (flymake-diagnostic-beg d))
                  (flymake-diagnostic-text d)))
          diagnostics))

(defun ppn-test-hover ()
  "The hover text at point, as Eglot gives it to ElDoc."
  (let ((answer nil))
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq answer (or info ""))))
    (ppn-test-wait (lambda () answer))
    answer))

(defconst ppn-test-file-letters-9 "a +b +c +d +e +f +g +h +i"
  "The files of a 9x9 board, as a text diagram writes them under it.")

;;;; PPN

(defconst ppn-test-ppn-text
  "---
GameType: Tablut
Macros: {opening: a4-a3}
...
1. `opening' 1... c5-c3 { a comment }
2. e4*e3
---
GameType: Tablut
...
1. a4-a3 1... c5-c3
2. d1-d3
")

(defun ppn-test-ppn ()
  (ppn-test-open "tablut game.ppn" ppn-test-ppn-text)
  (ppn-test-check "a .ppn file opens in ppn-mode" (eq major-mode 'ppn-mode) major-mode)
  (ppn-test-check "PPN comments are { ... }" (equal (list comment-start comment-end) '("{ " " }")))
  (ppn-test-check "M-; writes a PPN comment"
                  (with-temp-buffer
                    (insert "2. d1-d3")
                    (ppn-mode)
                    (comment-region 4 (point-max))
                    (equal (buffer-string) "2. { d1-d3 }")))
  ;; Syntax colouring.
  (ppn-test-check "--- is a keyword" (eq (ppn-test-face-at "---") 'font-lock-keyword-face))
  (ppn-test-check "metadata keys are highlighted"
                  (eq (ppn-test-face-at "GameType") 'font-lock-variable-name-face))
  (ppn-test-check "a YAML flow mapping in the metadata is no comment"
                  (not (memq (ppn-test-face-at "{opening" 1)
                             '(font-lock-comment-face font-lock-comment-delimiter-face)))
                  (ppn-test-face-at "{opening" 1))
  (ppn-test-check "MoveNumbers are highlighted"
                  (eq (ppn-test-face-at "1... c5") 'font-lock-constant-face))
  (ppn-test-check "macros are highlighted"
                  (eq (ppn-test-face-at "`opening'") 'font-lock-preprocessor-face))
  (ppn-test-check "a comment is a comment"
                  (eq (ppn-test-face-at "a comment") 'font-lock-comment-face))
  (ppn-test-check "locations are highlighted"
                  (eq (ppn-test-face-at "c5-c3") 'font-lock-variable-name-face))
  ;; The language server, registered with Eglot.
  (call-interactively #'eglot)
  (let ((server (ppn-test-wait #'eglot-current-server)))
    (ppn-test-check "Eglot starts ppn-ls for the .ppn file"
                    (and server (string-match-p "ppn-ls" (format "%S" (process-command (jsonrpc--process server))))))
    (unless server
      (error "No language server: see the *EGLOT events* buffer")))
  (let ((diagnostics (ppn-test-diagnostics-where #'identity)))
    (ppn-test-check "Flymake shows the diagnostic on its line"
                    (equal (mapcar #'car (ppn-test-diagnostic-lines diagnostics)) '(6))
                    (ppn-test-diagnostic-lines diagnostics))
    (ppn-test-check "it says what is wrong"
                    (string-match-p "is a capture" (flymake-diagnostic-text (car diagnostics)))
                    (flymake-diagnostic-text (car diagnostics)))
    (ppn-test-check "it is an error" (eq (flymake-diagnostic-type (car diagnostics)) 'eglot-error)
                    (flymake-diagnostic-type (car diagnostics))))
  ;; Hover on a move: its label and the board after it.
  (ppn-test-goto "c5-c3" 1)
  (let ((hover (ppn-test-hover)))
    (ppn-test-check "hover on a move shows the move and a board"
                    (and (stringp hover) (string-match-p "1\\.\\.\\." hover)
                         (string-match-p ppn-test-file-letters-9 hover))
                    hover))
  ;; Completion of a macro's name.
  (goto-char (point-min))
  (forward-line 5)
  (end-of-line)
  (insert " 2... `op")
  (let ((before (ppn-test-line 6)))
    (completion-at-point)
    (ppn-test-check "completion at `op completes the macro `opening'"
                    (string-prefix-p "2. e4*e3 2... `opening" (ppn-test-line 6))
                    (list before (ppn-test-line 6))))
  (delete-region (progn (goto-char (point-min)) (forward-line 5) (+ (point) (length "2. e4*e3")))
                 (line-end-position))
  (ppn-test-check "(taken out again)" (equal (ppn-test-line 6) "2. e4*e3") (ppn-test-line 6))
  ;; Symbols: the games and their moves, through imenu.
  (let* ((index (funcall imenu-create-index-function))
         (names (let (all)
                  (cl-labels ((walk (entries)
                                (dolist (entry entries)
                                  (push (car entry) all)
                                  (when (imenu--subalist-p entry) (walk (cdr entry))))))
                    (walk index))
                  all)))
    (ppn-test-check "imenu lists the games"
                    (and (member "Game 1: Tablut" names) (member "Game 2: Tablut" names))
                    names))
  ;; Go to a macro's definition.
  (ppn-test-goto "`opening'" 3)
  (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
  (ppn-test-check "M-. on a macro goes to its definition"
                  (and (= (line-number-at-pos) 3) (looking-at "opening"))
                  (list (line-number-at-pos) (buffer-substring (point) (line-end-position))))
  ;; The board at point: by the server, and by the command line without it.
  (ppn-test-goto "c5-c3\n2. d1" 1)
  (ppn-ls-board)
  (let ((board (with-current-buffer "*ppn-ls board*" (buffer-string))))
    (ppn-test-check "C-c C-b shows the board after the move at point"
                    (and (string-match-p "\\`--- 1\\.\\.\\." board)
                         (string-match-p ppn-test-file-letters-9 board))
                    board))
  (kill-buffer "*ppn-ls board*")
  (cl-letf (((symbol-function 'eglot-current-server) #'ignore))
    (ppn-ls-board))
  (let ((board (with-current-buffer "*ppn-ls board*" (buffer-string))))
    (ppn-test-check "without Eglot it runs ppn-ls render on the file (with a space in its name)"
                    (and (string-match-p "1\\.\\.\\. c5-c3" board)
                         (string-match-p ppn-test-file-letters-9 board))
                    board))
  (let* ((opened nil)
         (ppn-ls-picture-file (expand-file-name "board.svg" ppn-test-dir)))
    (cl-letf (((symbol-function 'browse-url-of-file) (lambda (file) (setq opened file))))
      (ppn-ls-board-picture))
    (ppn-test-check "C-c C-p writes the picture and opens it"
                    (and (equal opened ppn-ls-picture-file)
                         (with-temp-buffer
                           (insert-file-contents ppn-ls-picture-file)
                           (search-forward "<svg" nil t)))
                    opened))
  ;; C-c C-a: the game played, by the server and by the command line without it.
  (dolist (how '(server command-line))
    (let* ((opened nil)
           (ppn-ls-picture-file (expand-file-name (format "game-%s.svg" how) ppn-test-dir)))
      (cl-letf (((symbol-function 'browse-url-of-file) (lambda (file) (setq opened file))))
        (if (eq how 'server)
            (ppn-ls-animate)
          (cl-letf (((symbol-function 'eglot-current-server) #'ignore))
            (ppn-ls-animate))))
      (let ((frames (with-temp-buffer
                      (when (file-exists-p ppn-ls-picture-file)
                        (insert-file-contents ppn-ls-picture-file))
                      (how-many "<g id=\"frame-" (point-min) (point-max)))))
        (ppn-test-check (format "C-c C-a opens the game played from its start (%s)" how)
                        (and (equal opened ppn-ls-picture-file) (> frames 2))
                        (list opened frames)))))
  ;; The quick fix, then an edit that makes an error and one that clears it.
  (ppn-test-goto "e4*e3" 1)
  (eglot-code-actions (point) (point) "quickfix" t)
  (ppn-test-check "the quick fix rewrites the move" (equal (ppn-test-line 6) "2. e4:e3")
                  (ppn-test-line 6))
  (ppn-test-check "and its diagnostic goes"
                  (null (ppn-test-diagnostics-where #'null))
                  (ppn-test-diagnostic-lines (flymake-diagnostics)))
  (goto-char (point-max))
  (insert "3. *h9\n")
  (let ((diagnostics (ppn-test-diagnostics-where #'identity)))
    (ppn-test-check "an edit that empties no square is flagged"
                    (equal (mapcar #'car (ppn-test-diagnostic-lines diagnostics)) '(12))
                    (ppn-test-diagnostic-lines diagnostics)))
  (goto-char (point-max))
  (search-backward "h9")
  (delete-char 2)
  (insert "e3")
  (ppn-test-check "an edit that clears the error clears its diagnostic"
                  (null (ppn-test-diagnostics-where #'null))
                  (ppn-test-diagnostic-lines (flymake-diagnostics))))

;;;; OpenTafl and xiangqi-setup

(defconst ppn-test-otg-text
  "[rules:dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

1. g4-g3 d5-f5
2. g3-e3 f5-f6 [a note]
3. b4-b3 f6-f5
4. b3-c3 f5-f6
")

(defun ppn-test-opentafl ()
  (ppn-test-open "record.otg" ppn-test-otg-text)
  (ppn-test-check "an .otg file opens in otn-mode" (eq major-mode 'otn-mode) major-mode)
  (ppn-test-check "OpenTafl: tags, turn numbers, squares and commentary are highlighted"
                  (equal (list (ppn-test-face-at "rules") (ppn-test-face-at "1.")
                               (ppn-test-face-at "g4") (ppn-test-face-at "a note"))
                         '(font-lock-keyword-face font-lock-constant-face
                                                  font-lock-variable-name-face
                                                  font-lock-comment-face)))
  (ppn-test-check "Eglot manages the .otg file too" (ppn-test-wait #'eglot-current-server 5))
  (let ((diagnostics (ppn-test-diagnostics-where #'identity)))
    (ppn-test-check "OpenTafl: the capture the record leaves out is flagged"
                    (and (equal (mapcar #'car (ppn-test-diagnostic-lines diagnostics)) '(6))
                         (string-match-p "captures" (flymake-diagnostic-text (car diagnostics))))
                    (ppn-test-diagnostic-lines diagnostics)))
  (ppn-test-goto "b3-c3" 1)
  (let ((hover (ppn-test-hover)))
    (ppn-test-check "OpenTafl: hover on a move shows a board"
                    (and (stringp hover) (string-match-p "a +b +c +d +e +f +g\\b" hover)) hover))
  (eglot-code-actions (point) (point) "quickfix" t)
  (ppn-test-check "OpenTafl: the quick fix writes the capture"
                  (string-prefix-p "4. b3-c3xd3" (ppn-test-line 6)) (ppn-test-line 6))
  (ppn-test-check "OpenTafl: and its diagnostic goes"
                  (null (ppn-test-diagnostics-where #'null))
                  (ppn-test-diagnostic-lines (flymake-diagnostics))))

(defun ppn-test-xiangqi ()
  (ppn-test-open "record.wxf" "FORMAT  WXF\nSTART{\n 1. H2+3 h8+7\n 2. H3+4 r9.8\n}END\n")
  (ppn-test-check "a .wxf file opens in wxf-mode" (eq major-mode 'wxf-mode) major-mode)
  (ppn-test-check "WXF: headers, move numbers and pieces are highlighted"
                  (equal (list (ppn-test-face-at "FORMAT") (ppn-test-face-at "1.")
                               (ppn-test-face-at "H2+3"))
                         '(font-lock-variable-name-face font-lock-constant-face
                                                        font-lock-type-face)))
  (ppn-test-wait #'eglot-current-server 5)
  (let ((diagnostics (ppn-test-diagnostics-where #'identity)))
    (ppn-test-check "WXF: the illegal horse move is flagged"
                    (and (equal (mapcar #'car (ppn-test-diagnostic-lines diagnostics)) '(4))
                         (string-match-p "leg is blocked" (flymake-diagnostic-text (car diagnostics))))
                    (ppn-test-diagnostic-lines diagnostics)))
  (dolist (sample '(("initial.annofen" . annofen-mode) ("demo.fen" . xiangqi-fen-mode)
                    ("demo-movement-horse.xay" . xay-mode)))
    (find-file (expand-file-name (concat "tests/xiangqi/samples/" (car sample)) ppn-test-root))
    (font-lock-ensure)
    (ppn-test-check (format "%s opens in %s, # starts a comment" (car sample) (cdr sample))
                    (and (eq major-mode (cdr sample)) (equal comment-start "# ")))
    (when (eq major-mode 'annofen-mode)
      (ppn-test-check "annoFEN: comments and pieces are highlighted"
                      (and (eq (ppn-test-face-at "# Copyright" 2) 'font-lock-comment-face)
                           (eq (ppn-test-face-at "rnbakabnr") 'font-lock-type-face))))
    (kill-buffer)))

;;;; Run

(defun ppn-test-run ()
  (let ((ok nil)
        ;; Eglot's progress messages; the checks say what happened.
        (inhibit-message t))
    (unwind-protect
        (condition-case err
            (progn
              (ppn-test-ppn)
              (ppn-test-opentafl)
              (ppn-test-xiangqi)
              (setq ok t))
          (error (ppn-test-check "the test runs to its end" nil err)))
      (ignore-errors (eglot-shutdown (eglot-current-server)))
      (unless ok
        (dolist (buffer (buffer-list))
          (when (string-match-p "EGLOT.*events" (buffer-name buffer))
            (princ (with-current-buffer buffer
                     (let ((text (buffer-string)))
                       (substring text (max 0 (- (length text) 3000)))))))))
      (delete-directory ppn-test-dir t))
    (princ (format "%d passed, %d failed\n" ppn-test-passed ppn-test-failed))
    (kill-emacs (if (and ok (zerop ppn-test-failed)) 0 1))))

(ppn-test-run)

;;; emacs_test.el ends here
