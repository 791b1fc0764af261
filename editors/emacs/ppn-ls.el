;;; ppn-ls.el --- Major modes for board-game notations, with the ppn-ls language server  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: languages, games
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Major modes for Portable Piecepack Notation (`ppn-mode', *.ppn), OpenTafl records
;; (`otn-mode', *.otg and *.otn) and xiangqi-setup's files (`annofen-mode',
;; `xiangqi-fen-mode' for *.fen, `wxf-mode', `xay-mode'): file associations, comments and
;; syntax colouring.  Each mode is registered with Eglot, which starts `ppn-ls' for
;; diagnostics (through Flymake), hover, completion, symbols, definitions and quick fixes.
;; `ppn-ls-board' (C-c C-b) shows the board after the move at point as a text diagram and
;; `ppn-ls-board-picture' (C-c C-p) as a picture; `ppn-ls-animate' (C-c C-a) plays the game
;; at point from its start in a browser.  See README.md next to this file.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup ppn-ls nil
  "Board-game notations (PPN, OpenTafl, xiangqi-setup) with the ppn-ls language server."
  :group 'languages
  :prefix "ppn-ls-")

(defcustom ppn-ls-program "ppn-ls"
  "The ppn-ls executable: a name found on `exec-path', or a file name."
  :type 'string)

(defcustom ppn-ls-picture-file (expand-file-name "ppn-board.svg" temporary-file-directory)
  "Where the picture commands write a picture before showing it.
They are `ppn-ls-board-picture' and `ppn-ls-animate'."
  :type 'file)

(defconst ppn-ls-modes
  '(ppn-mode otn-mode annofen-mode xiangqi-fen-mode wxf-mode xay-mode)
  "The major modes whose files ppn-ls reads.")

(defvar ppn-ls-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-b") #'ppn-ls-board)
    (define-key map (kbd "C-c C-p") #'ppn-ls-board-picture)
    (define-key map (kbd "C-c C-a") #'ppn-ls-animate)
    map)
  "Keys shared by the modes of `ppn-ls-modes'.")

(define-derived-mode ppn-ls-base-mode prog-mode "ppn-ls"
  "Parent of the modes of `ppn-ls-modes'."
  :abbrev-table nil
  (setq-local indent-tabs-mode nil))

;;;; PPN

;; A file is a list of games, each opened by a `---' line (the first may leave it out).
;; A game's YAML metadata runs to a `...' line, or else to a blank line; the movetext
;; follows.  Highlighting of the movetext and its comments needs to know where a game's
;; metadata ends: the games' starts are found once per edit, and each game's movetext
;; start when first asked for, so that a long file is not searched again for each word.

(defconst ppn-ls--game-separator-re "^---"
  "A line that starts a game.")

(defvar-local ppn-ls--games nil
  "What `ppn-ls--games' found, as of a buffer modification tick.")

(cl-defstruct (ppn-ls--games (:constructor ppn-ls--make-games) (:copier nil))
  "The games of a PPN buffer: STARTS, the `---' lines in order; MOVETEXTS, where
each game's movetext starts (nil until asked for; the last slot is the first
game's when it has no `---')."
  tick starts movetexts)

(defun ppn-ls--games ()
  "The games of the buffer as it is."
  (let ((tick (buffer-chars-modified-tick)))
    (unless (and ppn-ls--games (eq (ppn-ls--games-tick ppn-ls--games) tick))
      (let ((starts nil))
        (save-excursion
          (save-match-data
            (goto-char (point-min))
            (while (re-search-forward ppn-ls--game-separator-re nil t)
              (push (match-beginning 0) starts))))
        (setq starts (vconcat (nreverse starts)))
        (setq ppn-ls--games
              (ppn-ls--make-games :tick tick :starts starts
                                  :movetexts (make-vector (1+ (length starts)) nil)))))
    ppn-ls--games))

(defun ppn-ls--game-index (games pos)
  "Index in GAMES of the game holding POS: its `---' line, or -1 before the first."
  (let ((starts (ppn-ls--games-starts games))
        (low 0)
        (high nil))
    (setq high (length starts))
    ;; The number of starts at or before POS.
    (while (< low high)
      (let ((middle (/ (+ low high) 2)))
        (if (<= (aref starts middle) pos)
            (setq low (1+ middle))
          (setq high middle))))
    (1- low)))

(defun ppn-ls--movetext-start-uncached (start)
  "Where the movetext of the game starting at START begins."
  (save-excursion
    (goto-char start)
    (let* ((separated (looking-at ppn-ls--game-separator-re))
           (body (if separated (progn (forward-line 1) (point)) start))
           (end (save-excursion
                  (goto-char body)
                  (if (re-search-forward ppn-ls--game-separator-re nil t)
                      (line-beginning-position)
                    (point-max))))
           (first-line-is-key
            (save-excursion
              (goto-char body)
              (looking-at "[A-Za-z_][^:\n]*:\\([ \t]\\|$\\)")))
           (opens-with-comment (eq (char-after body) ?{)))
      (goto-char body)
      (cond
       ;; A `...' line anywhere in the game ends the metadata.
       ((re-search-forward "^\\.\\.\\..*$" end t) (point))
       ;; Else a blank line (empty, or starting with a space or tab) ends it, if the game
       ;; has metadata at all: the first game only when it opens with a YAML key.
       ((and (if separated (not opens-with-comment) first-line-is-key)
             (progn (goto-char body)
                    (re-search-forward "^\\([ \t].*\\)?$" end t)))
        (line-beginning-position))
       (t body)))))

(defun ppn-ls--movetext-start (pos)
  "Where the movetext of the game holding POS begins."
  (let* ((games (ppn-ls--games))
         (index (ppn-ls--game-index games pos))
         (movetexts (ppn-ls--games-movetexts games))
         (slot (if (< index 0) (1- (length movetexts)) index)))
    (or (aref movetexts slot)
        (aset movetexts slot
              (ppn-ls--movetext-start-uncached
               (if (< index 0) (point-min) (aref (ppn-ls--games-starts games) index)))))))

(defun ppn-ls--in-movetext-p (pos)
  "Non-nil when POS is in a game's movetext (not its metadata)."
  (save-match-data
    (>= pos (ppn-ls--movetext-start pos))))

(defun ppn-ls--in-metadata-p (pos)
  "Non-nil when POS is in a game's metadata."
  (save-match-data
    (save-excursion
      (goto-char pos)
      (and (not (looking-at "^\\(---\\|\\.\\.\\.\\)"))
           (< pos (ppn-ls--movetext-start pos))))))

(defun ppn-ls--matcher (regexp where &optional group)
  "A font-lock matcher for REGEXP whose GROUP (default 0) starts where WHERE says."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (when (funcall where (match-beginning (or group 0)))
          (setq found t)))
      found)))

(defun ppn-ls--move-number-matcher (limit)
  "Font-lock matcher for MoveNumbers: whole words ending in a period, in movetext."
  (let (found)
    (while (and (not found)
                (re-search-forward "\\([[:alnum:]_.]*\\.\\)\\([ \t\n]\\|\\'\\)" limit t))
      (let ((start (match-beginning 1)))
        (when (and (or (= start (line-beginning-position))
                       (memq (char-before start) '(?\s ?\t)))
                   (ppn-ls--in-movetext-p start))
          (setq found t))
        ;; The whitespace after it may come before the next one (`1. 1...').
        (goto-char (match-end 1))))
    found))

(defun ppn-ls--comment-end (open)
  "Where the PPN comment opening at OPEN ends (after its `}'), or nil.
A `{' after whitespace opens a comment unless it is a brace
expansion: no whitespace before its first `}' and text glued
after that `}'.  A comment ends at its first `}'."
  (save-excursion
    (goto-char (1+ open))
    (let ((saw-space nil) (comment nil) (close nil))
      (while (and (not comment) (not (eobp)))
        (let ((char (char-after)))
          (cond
           ((eq char ?})
            (setq comment (if saw-space 'comment
                            (if (or (= (1+ (point)) (point-max))
                                    (memq (char-after (1+ (point))) '(?\s ?\t ?\n ?\r)))
                                'comment
                              'expansion))))
           ((eq char ?{) (setq comment (if saw-space 'comment 'expansion)))
           ((memq char '(?\s ?\t ?\n ?\r)) (setq saw-space t) (forward-char))
           (t (forward-char)))))
      (when (eq comment 'comment)
        ;; The comment's own `}': the first after the `{', before another `{' or game.
        (goto-char (1+ open))
        (when (re-search-forward "[{}]\\|^---" nil t)
          (when (eq (char-before) ?})
            (setq close (point))))
        close))))

(defun ppn-ls--ppn-syntax-propertize (start end)
  "Mark the `{' and `}' of PPN comments between START and END as comment fences."
  (goto-char start)
  (while (search-forward "{" end t)
    (let ((open (1- (point))))
      ;; A comment found here is skipped whole, and one that started before START
      ;; made the region start with it (`syntax-propertize-multiline').
      (when (and (or (= open (line-beginning-position))
                     (memq (char-before open) '(?\s ?\t)))
                 (ppn-ls--in-movetext-p open))
        (let ((close (ppn-ls--comment-end open)))
          (when close
            (put-text-property open (1+ open) 'syntax-table (string-to-syntax "!"))
            (put-text-property (1- close) close 'syntax-table (string-to-syntax "!"))
            (put-text-property open close 'syntax-multiline t)
            (goto-char close)))))))

(defvar ppn-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?{ "(}" table)
    (modify-syntax-entry ?} "){" table)
    (modify-syntax-entry ?\[ "(]" table)
    (modify-syntax-entry ?\] ")[" table)
    (dolist (char '(?\" ?' ?` ?@ ?- ?: ?* ?# ?+ ?! ?% ?~ ?= ?\\ ?| ?& ?$ ?? ?/ ?^ ?\; ?, ?< ?>))
      (modify-syntax-entry char "." table))
    (modify-syntax-entry ?_ "_" table)
    table)
  "Syntax table of `ppn-mode'.")

(defconst ppn-ls--ppn-font-lock-keywords
  `(("^---.*$" . font-lock-keyword-face)
    ("^\\.\\.\\..*$" . font-lock-keyword-face)
    ;; Metadata: YAML keys and quoted strings.
    (,(ppn-ls--matcher "^[ \t]*\\(?:- \\)?\\([A-Za-z_][A-Za-z0-9_ -]*\\):\\([ \t]\\|$\\)"
                       #'ppn-ls--in-metadata-p 1)
     1 font-lock-variable-name-face)
    (,(ppn-ls--matcher "\"[^\"\n]*\"\\|'[^'\n]*'" #'ppn-ls--in-metadata-p)
     0 font-lock-string-face)
    ;; Movetext.
    (ppn-ls--move-number-matcher 1 font-lock-constant-face)
    (,(ppn-ls--matcher "`[^`'[:space:];]*'" #'ppn-ls--in-movetext-p)
     0 font-lock-preprocessor-face)
    (,(ppn-ls--matcher "\\(?:@>\\|\\$>\\)-?[0-9.]*\\|[-@\\_:#*+!%~=\u203f\u035c]"
                       #'ppn-ls--in-movetext-p)
     0 font-lock-builtin-face)
    (,(ppn-ls--matcher "\\([^][[:space:]@\\{}()`'\";:,<>|&$?/~=*+!%#.-]+\\)[@\\]"
                       #'ppn-ls--in-movetext-p 1)
     1 font-lock-type-face)
    (,(ppn-ls--matcher "\\_<[a-z]+[0-9]+\\_>" #'ppn-ls--in-movetext-p)
     0 font-lock-variable-name-face))
  "Highlighting of `ppn-mode', beyond comments.")

;;;###autoload
(define-derived-mode ppn-mode ppn-ls-base-mode "PPN"
  "Major mode for Portable Piecepack Notation (PPN) files.

\\{ppn-mode-map}"
  :syntax-table ppn-mode-syntax-table
  (setq-local comment-start "{ ")
  (setq-local comment-end " }")
  (setq-local comment-start-skip "{[ \t]+")
  (setq-local comment-end-skip "[ \t]+}")
  (setq-local comment-use-syntax t)
  (setq-local syntax-propertize-function #'ppn-ls--ppn-syntax-propertize)
  (add-hook 'syntax-propertize-extend-region-functions
            #'syntax-propertize-multiline 'append 'local)
  (setq-local font-lock-defaults '(ppn-ls--ppn-font-lock-keywords))
  (setq-local font-lock-multiline t))

;;;; OpenTafl

(defun ppn-ls--otn-syntax-propertize (start end)
  "Mark OpenTafl commentary `[ ... ]' between START and END as comments.
A `[' that opens a tag (`[name:' at a line start) is not commentary."
  (goto-char start)
  (while (re-search-forward "\\[" end t)
    (let ((open (1- (point))))
      (unless (save-excursion
                (goto-char open)
                (looking-at "\\[[a-z][a-z0-9_-]*:"))
        (when (search-forward "]" nil t)
          (put-text-property open (1+ open) 'syntax-table (string-to-syntax "!"))
          (put-text-property (1- (point)) (point) 'syntax-table (string-to-syntax "!"))
          (put-text-property open (point) 'syntax-multiline t))))))

(defvar otn-mode-syntax-table
  (let ((table (make-syntax-table)))
    (dolist (char '(?\" ?' ?- ?: ?/ ?^ ?= ?+ ?| ?.))
      (modify-syntax-entry char "." table))
    table)
  "Syntax table of `otn-mode'.")

(defconst ppn-ls--otn-font-lock-keywords
  '(("^[ \t]*\\[\\([a-z][a-z0-9_-]*\\):" 1 font-lock-keyword-face)
    ("\\(?:^\\|[ \t:]\\)\\([a-z]+\\):\\([^][:space:]]*\\)"
     (1 font-lock-variable-name-face) (2 font-lock-constant-face))
    ("^[ \t]*\\([0-9]+[a-z]?\\(?:\\.[0-9]+\\.[0-9]+[a-z]\\)*\\.?\\)\\([ \t]\\|$\\)"
     1 font-lock-constant-face)
    ("\\([tcnkmgTCNKMG]\\)?\\([a-z][0-9]\\{1,2\\}\\)\\(\\^=\\|\\^\\|=\\|-\\)\\([a-z][0-9]\\{1,2\\}\\)"
     (1 font-lock-type-face nil t) (2 font-lock-variable-name-face)
     (3 font-lock-builtin-face) (4 font-lock-variable-name-face))
    ("\\([x/]\\)\\([tcnkmgTCNKMG]\\)?\\([a-z][0-9]\\{1,2\\}\\)"
     (1 font-lock-builtin-face) (2 font-lock-type-face nil t) (3 font-lock-variable-name-face))
    ("[ \t]\\(---\\|\\.\\.+\\)\\([ \t]\\|$\\)" 1 font-lock-keyword-face))
  "Highlighting of `otn-mode', beyond commentary.")

;;;###autoload
(define-derived-mode otn-mode ppn-ls-base-mode "OpenTafl"
  "Major mode for OpenTafl Notation: records (.otg), rules, positions (.otn).

\\{otn-mode-map}"
  :syntax-table otn-mode-syntax-table
  (setq-local comment-start "[")
  (setq-local comment-end "]")
  (setq-local comment-start-skip "\\[[ \t]*")
  (setq-local comment-end-skip "[ \t]*\\]")
  (setq-local syntax-propertize-function #'ppn-ls--otn-syntax-propertize)
  (add-hook 'syntax-propertize-extend-region-functions
            #'syntax-propertize-multiline 'append 'local)
  (setq-local font-lock-defaults '(ppn-ls--otn-font-lock-keywords))
  (setq-local font-lock-multiline t))

;;;; xiangqi-setup: annoFEN, FEN, WXF and XAY

(defvar ppn-ls--hash-comment-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (dolist (char '(?' ?/ ?+ ?- ?. ?= ?: ?\;))
      (modify-syntax-entry char "." table))
    table)
  "Syntax table of the xiangqi-setup modes: `#' comments to the end of the line.")

(defun ppn-ls--hash-comments ()
  "Set up `#' comments."
  (setq-local comment-start "# ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "#+[ \t]*"))

(defconst ppn-ls--fen-font-lock-keywords
  '(("^v[0-9]+\\_>" . font-lock-keyword-face)
    ("<\\([^>\n]*\\)>" 1 font-lock-constant-face)
    ("[rnbakcpehRNBAKCPEH]" . font-lock-type-face)
    ("[0-9]+" . font-lock-constant-face)
    ("/" . font-lock-builtin-face))
  "Highlighting of boards written as FEN (annoFEN and xiangqi FEN).")

(defconst ppn-ls--wxf-font-lock-keywords
  '(("^\\(SETUP{\\|START{\\|}END\\|}\\)" . font-lock-keyword-face)
    ("^\\([A-Z]+\\)[ \t]" 1 font-lock-variable-name-face)
    ("\\_<[0-9]+\\." . font-lock-constant-face)
    ("\\_<\\([RHEACPKrheacpk+-]\\)\\([1-9+-]\\)\\([.+=-]\\)\\([1-9]\\)\\_>"
     (1 font-lock-type-face) (3 font-lock-builtin-face)))
  "Highlighting of `wxf-mode'.")

(defconst ppn-ls--xay-font-lock-keywords
  '(("^[ \t]*\\(?:- \\)?\\([A-Za-z_][A-Za-z0-9_-]*\\):" 1 font-lock-variable-name-face)
    ("\"[^\"\n]*\"\\|'[^'\n]*'" . font-lock-string-face))
  "Highlighting of `xay-mode' (YAML).")

;;;###autoload
(define-derived-mode annofen-mode ppn-ls-base-mode "annoFEN"
  "Major mode for xiangqi-setup's annotated FEN positions (.annofen).

\\{annofen-mode-map}"
  :syntax-table ppn-ls--hash-comment-syntax-table
  (ppn-ls--hash-comments)
  (setq-local font-lock-defaults '(ppn-ls--fen-font-lock-keywords)))

;;;###autoload
(define-derived-mode xiangqi-fen-mode ppn-ls-base-mode "Xiangqi-FEN"
  "Major mode for xiangqi positions in FEN (.fen).

\\{xiangqi-fen-mode-map}"
  :syntax-table ppn-ls--hash-comment-syntax-table
  (ppn-ls--hash-comments)
  (setq-local font-lock-defaults '(ppn-ls--fen-font-lock-keywords)))

;;;###autoload
(define-derived-mode wxf-mode ppn-ls-base-mode "WXF"
  "Major mode for xiangqi game records in WXF (.wxf).

\\{wxf-mode-map}"
  :syntax-table ppn-ls--hash-comment-syntax-table
  (ppn-ls--hash-comments)
  (setq-local font-lock-defaults '(ppn-ls--wxf-font-lock-keywords)))

;;;###autoload
(define-derived-mode xay-mode ppn-ls-base-mode "XAY"
  "Major mode for xiangqi-setup's YAML positions (.xay).

\\{xay-mode-map}"
  :syntax-table ppn-ls--hash-comment-syntax-table
  (ppn-ls--hash-comments)
  (setq-local font-lock-defaults '(ppn-ls--xay-font-lock-keywords)))

(dolist (mode ppn-ls-modes)
  (set-keymap-parent (symbol-value (intern (format "%s-map" mode))) ppn-ls-mode-map))

;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\.ppn\\'" . ppn-mode))
  (add-to-list 'auto-mode-alist '("\\.ot[gn]\\'" . otn-mode))
  (add-to-list 'auto-mode-alist '("\\.annofen\\'" . annofen-mode))
  (add-to-list 'auto-mode-alist '("\\.fen\\'" . xiangqi-fen-mode))
  (add-to-list 'auto-mode-alist '("\\.wxf\\'" . wxf-mode))
  (add-to-list 'auto-mode-alist '("\\.xay\\'" . xay-mode)))

;;;; The language server

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `(,ppn-ls-modes . ,(lambda (&optional _interactive) (list ppn-ls-program)))))

(declare-function eglot-current-server "eglot")
(declare-function eglot--TextDocumentPositionParams "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function jsonrpc-request "jsonrpc")

(defun ppn-ls--server-request (method &optional params)
  "Ask the buffer's ppn-ls (through Eglot) METHOD about point.
PARAMS (a plist) is sent beside the document and position.  The
answer is in a list; nil when Eglot manages no server here."
  (let ((server (and (fboundp 'eglot-current-server) (eglot-current-server))))
    (when server
      ;; Eglot sends edits when Emacs is idle: send those not sent yet first.
      (eglot--signal-textDocument/didChange)
      (list (jsonrpc-request server method
                             (append (eglot--TextDocumentPositionParams) params))))))

(defun ppn-ls--at ()
  "Point as ppn-ls's `--at LINE:COLUMN' (1-based, in characters)."
  (format "%d:%d" (line-number-at-pos) (1+ (- (point) (line-beginning-position)))))

(defun ppn-ls--show-board (label text)
  "Show the board TEXT after the move LABEL in the buffer `*ppn-ls board*'."
  (with-current-buffer (get-buffer-create "*ppn-ls board*")
    (let ((inhibit-read-only t))
      (erase-buffer)
      (insert (if label (format "--- %s\n" label) "") text)
      (goto-char (point-min)))
    (special-mode)
    (display-buffer (current-buffer))))

(defun ppn-ls-board ()
  "Show the board after the move at point (or the last before it) as text.
With Eglot it asks the running ppn-ls (the buffer as it is);
without, it runs `ppn-ls render FILE --at LINE:COLUMN' on the
saved file."
  (interactive)
  (let ((answer (ppn-ls--server-request :ppn/boardAt)))
    (cond
     ((and answer (car answer))
      (ppn-ls--show-board (plist-get (car answer) :label) (plist-get (car answer) :text)))
     (answer (message "ppn-ls: no game here"))
     ((not buffer-file-name) (user-error "ppn-ls: this buffer has no file"))
     (t
      (let ((file buffer-file-name)
            (at (ppn-ls--at)))
        (with-temp-buffer
          (if (eq 0 (call-process ppn-ls-program nil t nil "render" file "--at" at))
              (ppn-ls--show-board nil (buffer-string))
            (user-error "ppn-ls render: %s" (string-trim (buffer-string))))))))))

(defun ppn-ls--picture (animate)
  "Write the picture at point to `ppn-ls-picture-file' and return the file.
The board after the move at point, or with ANIMATE the game at point
played from its start.  With Eglot the running ppn-ls draws it (the
buffer as it is); without, `ppn-ls render' draws the saved file."
  (let* ((answer (ppn-ls--server-request :ppn/render (and animate '(:animate t))))
         (svg (and answer (car answer) (plist-get (car answer) :svg))))
    (cond
     (svg (with-temp-file ppn-ls-picture-file (insert svg)))
     (answer (user-error "ppn-ls: no game here"))
     ((not buffer-file-name) (user-error "ppn-ls: this buffer has no file"))
     (t
      (let ((file buffer-file-name)
            (at (ppn-ls--at)))
        (with-temp-buffer
          (unless (eq 0 (apply #'call-process ppn-ls-program nil t nil "render" file
                               "--at" at "-o" ppn-ls-picture-file
                               (and animate '("--animate"))))
            (user-error "ppn-ls render: %s" (string-trim (buffer-string))))))))
    ppn-ls-picture-file))

(defun ppn-ls-board-picture ()
  "Show the board after the move at point as a picture (SVG).
Shown in Emacs where it can display SVG, else opened with
`browse-url-of-file'."
  (interactive)
  (let ((file (ppn-ls--picture nil)))
    (if (and (display-images-p) (image-type-available-p 'svg))
        (find-file-other-window file)
      (browse-url-of-file file))
    file))

(defun ppn-ls-animate ()
  "Play the game at point from its start, a board a second.
The picture is an SVG animation, opened with `browse-url-of-file':
browsers play it, where Emacs would show its first board only."
  (interactive)
  (let ((file (ppn-ls--picture t)))
    (browse-url-of-file file)
    file))

(provide 'ppn-ls)

;;; ppn-ls.el ends here
