// The game viewer: a board picture, a move list and controls (first, previous, next, last,
// play/pause with a speed, flip, keyboard ←/→/Home/End). One script for every page that
// shows a game: the one-file game `ppn-ls render --format html` writes, and the web page.
// It knows nothing of notations: a source gives the games' states and draws a state's
// picture. No dependency, no module system: it defines `PpnViewer` on the global object.
//
//   const viewer = new PpnViewer(element, {
//     games: [{ name, states: [STATE], variations: [{ name, from: REF, states: [STATE] }] }],
//     picture: (game, ref, flipped) => svgText,  // or a promise of it
//     prefetch: (game, refs, flipped) => {},      // optional: pictures likely wanted next
//     // Optional, for a board one can play on and read (the page, the VS Code panel):
//     grid: (game, ref, flipped) => ({ rows: [[SQUARE]], text: [line] }) or null,
//     change: (game, ref) => 'the white pawn moves from e2 to e4',
//     targets: (game, ref, from) => ({ any: true }), ({ only: [name] }) or ({ readOnly: why }),
//     enterMove: (game, ref, from, to, { capture, placement }) => ANSWER,
//     write: (edit) => {},  // applies an answer's `edit` to the text
//   }, { onStep: (game, state) => {}, keys: document });
//
// (each of those may answer a promise). A SQUARE is `{ name, pieces, left, top, width,
// height }` (pieces in words, top first; the place as fractions of the picture); an
// ANSWER is `{ edit }`, `{ ask: 'capture-or-stack' | 'insert-or-replace' }` or
// `{ refused }`. With a grid, the board's squares lie over the picture as a grid of cells
// (`data-square`), named for screen readers ("e5, black king"); a piece is dragged, or
// clicked (tapped) and then its target, or picked and dropped from the keyboard (arrows,
// Enter or Space, Escape); each move shown is announced in words, and "Board as text"
// lists the pieces by square.
//
// A STATE is `{ label, text, comment, ref }`: `ref` names it to `picture` (and a variation
// branches from the state whose `ref` is its `from`). The viewer steps along a line: the
// main line, or a variation with the moves before it; a click on a variation's move goes
// into it. Parts carry `data-testid`s (board, move-list, first, prev, next, last, play,
// flip, speed, game) for tests and embedding; the board shows the current state's caption
// in its `title` and `data-label` attributes, as the picture's own title does.
(function (root) {
  'use strict';

  // A long game's move list shows this many moves around the current one (a page with a
  // hundred thousand list items would take seconds to lay out).
  const LISTED_AROUND = 150;

  const SPEEDS = [
    ['0.5×', 2000],
    ['1×', 1000],
    ['2×', 500],
    ['4×', 250],
    ['8×', 125],
  ];

  // Icons as SVG paths, so that no font has to have them.
  const ICONS = {
    first: 'M4 3h2v14H4zM17 3v14L7 10z',
    prev: 'M15 3v14L5 10z',
    next: 'M5 3v14l10-7z',
    last: 'M14 3h2v14h-2zM3 3v14l10-7z',
    play: 'M5 3v14l11-7z',
    pause: 'M5 3h4v14H5zM11 3h4v14h-4z',
    flip: 'M6 2 2 6h3v7h2V6h3zM14 18l4-4h-3V7h-2v7h-3z',
  };

  function icon(name) {
    return '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="' +
      ICONS[name] + '" fill="currentColor"/></svg>';
  }

  function element(tag, attributes, children) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name === 'text') {
        made.textContent = value;
      } else if (name === 'html') {
        made.innerHTML = value;
      } else {
        made.setAttribute(name, value);
      }
    }
    for (const child of children || []) {
      made.append(child);
    }
    return made;
  }

  /** A square as a screen reader says it: "e5, black king", a stack top to bottom. */
  function squareName(square) {
    return square.name + ', ' + (square.pieces.length ? square.pieces.join('; on ') : 'empty');
  }

  function caption(state) {
    return state.text ? state.label + ' ' + state.text : state.label;
  }

  /**
   * A game's lines: the main line, then each variation with the moves before it (those of
   * the line it branches from, up to where it branches).
   */
  function linesOf(game) {
    const main = game.states || [];
    const lines = [{ name: '', states: main, depth: 0, parent: -1, branch: -1 }];
    const where = new Map();
    main.forEach((state, i) => where.set(state.ref, [0, i]));
    const pending = (game.variations || []).slice();
    // A variation of a variation can only be placed once its parent is.
    for (let placed = true; placed && pending.length;) {
      placed = false;
      for (let k = 0; k < pending.length;) {
        const variation = pending[k];
        const at = where.get(variation.from);
        if (!at) {
          k += 1;
          continue;
        }
        const [parent, branch] = at;
        const line = lines.length;
        lines.push({
          name: variation.name,
          states: lines[parent].states.slice(0, branch + 1).concat(variation.states),
          depth: lines[parent].depth + 1,
          parent,
          branch,
        });
        variation.states.forEach((state, j) => where.set(state.ref, [line, branch + 1 + j]));
        pending.splice(k, 1);
        placed = true;
      }
    }
    // Where each line branches off: `line:index` of its parent → the lines.
    const branches = new Map();
    lines.forEach((line, i) => {
      if (i === 0) return;
      const key = line.parent + ':' + line.branch;
      if (!branches.has(key)) branches.set(key, []);
      branches.get(key).push(i);
    });
    return { lines, where, branches };
  }

  /** Whether two revisions of a game list the same moves from `listed.start` to `listed.end`. */
  function sameListed(before, after, listed) {
    if (before.lines.length !== 1 || after.lines.length !== 1) return false;
    const [old, now] = [before.lines[0].states, after.lines[0].states];
    if (old.length !== now.length) return false;
    for (let i = listed.start; i < listed.end; i += 1) {
      if (old[i].label !== now[i].label || old[i].text !== now[i].text) return false;
    }
    return true;
  }

  class PpnViewer {
    constructor(container, source, options) {
      this.options = options || {};
      this.game = 0;
      this.line = 0;
      this.index = 0;
      this.flipped = false;
      this.timer = null;
      this.speed = 1000;
      this.drawing = 0;
      this.build(container);
      this.setSource(source);
      const keys = this.options.keys === undefined ? this.root : this.options.keys;
      if (keys) {
        keys.addEventListener('keydown', (event) => this.onKey(event));
      }
    }

    build(container) {
      const button = (name, label) => element('button', {
        type: 'button', class: 'ppn-button', 'data-testid': name, title: label, 'aria-label': label,
        html: icon(name),
      });
      this.gameChoice = element('select', { class: 'ppn-game', 'data-testid': 'game', 'aria-label': 'Game' });
      this.picture = element('div', { class: 'ppn-picture' });
      this.squares = element('div', {
        class: 'ppn-squares', role: 'grid', 'data-testid': 'squares', 'aria-label': 'Board', hidden: '',
      });
      this.stage = element('div', { class: 'ppn-stage' }, [this.picture, this.squares]);
      this.captionLine = element('figcaption', { class: 'ppn-caption' });
      this.board = element('figure', { class: 'ppn-board', 'data-testid': 'board' }, [this.stage, this.captionLine]);
      this.question = element('div', { class: 'ppn-question', role: 'group', 'data-testid': 'move-question', hidden: '' });
      this.message = element('p', { class: 'ppn-message', role: 'status', 'data-testid': 'move-message', hidden: '' });
      this.announcement = element('p', { class: 'ppn-announcement', 'aria-live': 'polite', 'data-testid': 'announcement' });
      this.boardText = element('ul', { class: 'ppn-board-text', 'data-testid': 'board-text', 'aria-label': 'Board as text', hidden: '' });
      this.buttons = {
        first: button('first', 'First move (Home)'),
        prev: button('prev', 'Previous move (←)'),
        play: button('play', 'Play (space)'),
        next: button('next', 'Next move (→)'),
        last: button('last', 'Last move (End)'),
        flip: button('flip', 'Flip the board (f)'),
      };
      this.textToggle = element('button', {
        type: 'button', class: 'ppn-text-toggle', 'data-testid': 'board-text-toggle', 'aria-expanded': 'false',
        'aria-controls': 'ppn-board-text', text: 'Board as text', hidden: '',
      });
      this.boardText.id = 'ppn-board-text';
      this.speedChoice = element('select', { class: 'ppn-speed', 'data-testid': 'speed', 'aria-label': 'Speed' });
      for (const [label, ms] of SPEEDS) {
        const option = element('option', { value: String(ms), text: label });
        if (ms === this.speed) option.selected = true;
        this.speedChoice.append(option);
      }
      this.position = element('span', { class: 'ppn-position' });
      const controls = element('div', { class: 'ppn-controls', role: 'toolbar', 'aria-label': 'Moves' }, [
        this.buttons.first, this.buttons.prev, this.buttons.play, this.buttons.next, this.buttons.last,
        this.speedChoice, this.buttons.flip, this.textToggle, this.position,
      ]);
      this.comment = element('p', { class: 'ppn-comment' });
      this.moveList = element('ol', { class: 'ppn-moves', 'data-testid': 'move-list' });
      this.root = element('div', { class: 'ppn-viewer', tabindex: '-1' }, [
        this.gameChoice, this.board, this.question, this.message, controls, this.announcement, this.boardText,
        this.comment, this.moveList,
      ]);
      container.append(this.root);
      this.buildPlay();

      this.buttons.first.addEventListener('click', () => this.step(-Infinity));
      this.buttons.prev.addEventListener('click', () => this.step(-1));
      this.buttons.next.addEventListener('click', () => this.step(1));
      this.buttons.last.addEventListener('click', () => this.step(Infinity));
      this.buttons.play.addEventListener('click', () => this.togglePlay());
      this.buttons.flip.addEventListener('click', () => this.flip());
      this.textToggle.addEventListener('click', () => {
        const open = this.boardText.hidden;
        this.boardText.hidden = !open;
        this.textToggle.setAttribute('aria-expanded', String(open));
      });
      this.speedChoice.addEventListener('change', () => {
        this.speed = Number(this.speedChoice.value);
        if (this.timer !== null) {
          this.pause();
          this.play();
        }
      });
      this.gameChoice.addEventListener('change', () => {
        this.showLine(Number(this.gameChoice.value), 0, 0, { announce: true });
      });
      this.moveList.addEventListener('click', (event) => {
        const item = event.target.closest('[data-index]');
        if (item) {
          this.showLine(this.game, Number(item.dataset.line || 0), Number(item.dataset.index), { announce: true });
        }
      });
    }

    /**
     * New games (the text changed): the position is kept where it still exists, or goes to
     * `at` (`{game, ref}`) if given.
     */
    setSource(source, at) {
      this.source = source;
      const before = this.games && this.games[this.game];
      this.games = (source.games || []).map(linesOf);
      const choices = document.createDocumentFragment();
      (source.games || []).forEach((game, i) => {
        choices.append(element('option', { value: String(i), text: game.name || 'Game ' + (i + 1) }));
      });
      this.gameChoice.replaceChildren(choices);
      this.gameChoice.hidden = this.games.length < 2;
      // The same moves where the list shows them (an edit elsewhere, or of a comment): the
      // list stays as it is.
      const after = this.games[this.game];
      if (!(before && after && this.listedGame === this.game && sameListed(before, after, this.listed))) {
        this.listedGame = -1;
        this.listed = { start: 0, end: 0 };
      }
      if (this.games.length === 0) {
        this.pause();
        this.picture.replaceChildren();
        this.captionLine.textContent = 'No game to show';
        this.board.removeAttribute('title');
        this.board.removeAttribute('data-label');
        this.moveList.replaceChildren();
        this.updateControls();
        return;
      }
      const wanted = at && this.games[at.game] && this.games[at.game].where.get(at.ref);
      if (wanted) {
        this.showLine(at.game, wanted[0], wanted[1], { redraw: true, say: true });
        return;
      }
      const game = Math.min(Math.max(this.game, 0), this.games.length - 1);
      const line = this.games[game].lines[this.line] ? this.line : 0;
      this.showLine(game, line, this.index, { redraw: true });
    }

    /** The states of the line shown. */
    get states() {
      const game = this.games && this.games[this.game];
      return game ? game.lines[this.line].states : [];
    }

    /** The state shown. */
    get current() {
      return this.states[this.index];
    }

    /** Shows state `index` of game `game`'s main line. */
    show(game, index, how) {
      this.showLine(game, 0, index, how);
    }

    /** Shows the state `ref` names, on the line shown if it is there. */
    showRef(game, ref, how) {
      const lines = this.games[game];
      if (!lines) return;
      if (game === this.game) {
        const here = this.states.findIndex((state) => state.ref === ref);
        if (here >= 0) {
          this.showLine(game, this.line, here, how);
          return;
        }
      }
      const at = lines.where.get(ref);
      if (at) this.showLine(game, at[0], at[1], how);
    }

    /** Shows state `index` of a line of a game. */
    showLine(game, line, index, how) {
      how = how || {};
      const lines = this.games[game];
      if (!lines || !lines.lines[line]) return;
      const count = lines.lines[line].states.length;
      if (count === 0) return;
      const clamped = Math.min(Math.max(index, 0), count - 1);
      const changed = game !== this.game || line !== this.line || clamped !== this.index;
      this.game = game;
      this.line = line;
      this.index = clamped;
      const mainIndex = this.mainIndex();
      if (this.listedGame !== game || mainIndex < this.listed.start || mainIndex >= this.listed.end) {
        this.listMoves();
      }
      this.gameChoice.value = String(game);
      if (changed || how.redraw) {
        this.cancelPick();
        this.draw();
      }
      this.updateControls();
      // `say`: announced, without moving the editor's cursor as a step in the viewer does.
      if ((how.announce || how.say) && changed) {
        this.announce();
      }
      if (how.announce && this.options.onStep) {
        this.options.onStep(this.game, this.current);
      }
    }

    /** Where the state shown is, or branches off, in the main line. */
    mainIndex() {
      const lines = this.games[this.game].lines;
      let line = this.line;
      let index = this.index;
      while (line > 0) {
        index = lines[line].branch;
        line = lines[line].parent;
      }
      return index;
    }

    /** Moves by `delta` states along the line (±Infinity: to its first or last). */
    step(delta) {
      const last = this.states.length - 1;
      const target = delta === -Infinity ? 0 : delta === Infinity ? last : this.index + delta;
      this.showLine(this.game, this.line, target, { announce: true });
    }

    flip() {
      this.flipped = !this.flipped;
      this.buttons.flip.setAttribute('aria-pressed', String(this.flipped));
      this.draw();
    }

    togglePlay() {
      if (this.timer === null) this.play(); else this.pause();
    }

    play() {
      if (this.timer !== null) return;
      if (this.index >= this.states.length - 1) {
        this.step(-Infinity);
      }
      this.timer = setInterval(() => {
        if (this.index >= this.states.length - 1) {
          this.pause();
        } else {
          this.step(1);
        }
      }, this.speed);
      this.updateControls();
    }

    pause() {
      if (this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
      this.updateControls();
    }

    get playing() {
      return this.timer !== null;
    }

    onKey(event) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      const actions = {
        ArrowLeft: () => this.step(-1),
        ArrowRight: () => this.step(1),
        Home: () => this.step(-Infinity),
        End: () => this.step(Infinity),
        ' ': () => this.togglePlay(),
        f: () => this.flip(),
      };
      const action = actions[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    }

    /** The move list: the main line (around the state shown), each variation after the move it branches from. */
    listMoves() {
      this.listedGame = this.game;
      const game = this.games[this.game];
      const main = game.lines[0].states;
      const around = this.mainIndex();
      const start = Math.max(0, around - LISTED_AROUND);
      const end = Math.min(main.length, around + LISTED_AROUND);
      this.listed = { start, end };
      const items = document.createDocumentFragment();
      const more = (count, where) => element('li', {
        class: 'ppn-more', 'data-index': String(where), 'data-line': '0',
        text: '… ' + count + ' more',
      });
      const move = (line, i, state) => {
        const item = element('li', {
          'data-index': String(i), 'data-line': String(line), class: 'ppn-move',
          title: caption(state),
        }, [
          element('span', { class: 'ppn-move-label', text: state.label }),
          element('span', { class: 'ppn-move-text', text: state.text }),
        ]);
        return item;
      };
      // A line's own moves, each followed by the variations that branch off after it.
      const branchesAfter = (line, i, into) => {
        for (const variation of game.branches.get(line + ':' + i) || []) {
          const block = element('li', { class: 'ppn-line', 'data-variation': game.lines[variation].name });
          block.style.setProperty('--depth', String(game.lines[variation].depth));
          const moves = element('ol', { class: 'ppn-line-moves' });
          listLine(variation, game.lines[variation].branch + 1, game.lines[variation].states.length, moves);
          block.append(moves);
          into.append(block);
        }
      };
      const listLine = (line, from, to, into) => {
        const states = game.lines[line].states;
        for (let i = from; i < to; i += 1) {
          into.append(move(line, i, states[i]));
          branchesAfter(line, i, into);
        }
      };
      if (start > 0) items.append(more(start, start - 1));
      listLine(0, start, end, items);
      if (end < main.length) items.append(more(main.length - end, end));
      this.moveList.replaceChildren(items);
    }

    draw() {
      const state = this.current;
      if (!state) return;
      const title = caption(state);
      this.board.title = title;
      this.board.dataset.label = state.label;
      this.board.dataset.index = String(this.index);
      this.board.dataset.line = String(this.line);
      this.captionLine.textContent = title;
      this.comment.textContent = state.comment || '';
      this.comment.hidden = !state.comment;
      const ticket = ++this.drawing;
      const flipped = this.flipped;
      const shown = (svg) => {
        // A later step may have been drawn first.
        if (ticket !== this.drawing) return;
        this.picture.innerHTML = svg;
        this.board.dataset.flipped = String(flipped);
        this.placeSquares();
      };
      let picture;
      try {
        picture = this.source.picture(this.game, state.ref, flipped);
      } catch (error) {
        picture = Promise.reject(error);
      }
      const failed = (error) => {
        if (ticket !== this.drawing) return;
        this.picture.replaceChildren(element('p', { class: 'ppn-error', text: 'The board cannot be drawn: ' + error }));
      };
      if (typeof picture === 'string') {
        shown(picture);
      } else {
        Promise.resolve(picture).then(shown, failed);
      }
      this.drawSquares(ticket, flipped);
      if (this.source.prefetch) {
        const near = [this.states[this.index + 1], this.states[this.index - 1]].filter(Boolean);
        this.source.prefetch(this.game, near.map((near) => near.ref), flipped);
      }
    }

    // -------------------------------------------------------------------------------------
    // The board to play on and to read: the squares over the picture.

    /** Listens on the squares: pointer (mouse, pen, touch) and keyboard. */
    buildPlay() {
      this.picked = null;
      this.cursor = null;
      this.squaresDrawn = 0;
      const nameAt = (event) => {
        const found = document.elementFromPoint(event.clientX, event.clientY);
        const cell = found && found.closest && found.closest('[data-square]');
        return cell && this.squares.contains(cell) ? cell.dataset.square : null;
      };
      this.squares.addEventListener('pointerdown', (event) => {
        const cell = event.target.closest('[data-square]');
        if (!cell || event.button > 0) return;
        // The browser's own focus follows (the viewer, as no square but the keyboard's is
        // focusable): after a click ← and → still step through the game, in a VS Code panel's
        // frame too. Tab reaches the squares for the keyboard.
        this.pressed = { name: cell.dataset.square, wasPicked: this.picked };
        try {
          this.squares.setPointerCapture(event.pointerId);
        } catch {
          // A synthetic event has no pointer to capture.
        }
        if (!this.picked && this.hasPieces(cell.dataset.square)) this.pick(cell.dataset.square);
      });
      this.squares.addEventListener('pointermove', (event) => {
        if (!this.pressed) return;
        const name = nameAt(event);
        for (const over of this.squares.querySelectorAll('.ppn-over')) over.classList.remove('ppn-over');
        const cell = name && this.cell(name);
        if (cell && name !== this.pressed.name) cell.classList.add('ppn-over');
      });
      this.squares.addEventListener('pointerup', (event) => {
        const pressed = this.pressed;
        this.pressed = null;
        for (const over of this.squares.querySelectorAll('.ppn-over')) over.classList.remove('ppn-over');
        if (!pressed) return;
        const name = nameAt(event) || pressed.name;
        if (name !== pressed.name) {
          // Dragged from a square to another.
          if (this.picked === pressed.name) this.drop(name);
        } else if (pressed.wasPicked === name) {
          this.cancelPick('put back');
        } else if (pressed.wasPicked) {
          this.drop(name);
        }
      });
      this.squares.addEventListener('pointercancel', () => {
        this.pressed = null;
      });
      this.squares.addEventListener('keydown', (event) => this.onSquareKey(event));
      this.squares.addEventListener('focusin', (event) => {
        const cell = event.target.closest('[data-square]');
        if (cell) this.cursor = cell.dataset.square;
      });
      if (typeof ResizeObserver !== 'undefined') {
        new ResizeObserver(() => this.placeSquares()).observe(this.stage);
      }
    }

    /** Whether the board can be played on: the source writes moves. */
    get playable() {
      return Boolean(this.source && this.source.enterMove && this.source.write);
    }

    /** Asks the source for the board's squares and lays them over the picture. */
    drawSquares(ticket, flipped) {
      const state = this.current;
      if (!this.source.grid || !state) {
        this.squares.hidden = true;
        this.textToggle.hidden = true;
        return;
      }
      let asked;
      try {
        asked = this.source.grid(this.game, state.ref, flipped);
      } catch (error) {
        asked = Promise.reject(error);
      }
      Promise.resolve(asked).then((grid) => {
        if (ticket !== this.drawing) return;
        this.grid = grid;
        this.buildSquares(grid, state);
      }, () => {
        if (ticket !== this.drawing) return;
        this.grid = null;
        this.buildSquares(null, state);
      });
    }

    buildSquares(grid, state) {
      this.textToggle.hidden = !grid;
      if (!grid) {
        this.squares.hidden = true;
        this.squares.replaceChildren();
        this.boardText.replaceChildren();
        return;
      }
      const rows = document.createDocumentFragment();
      const names = [];
      grid.rows.forEach((row, y) => {
        const cells = row.map((square, x) => {
          names.push(square.name);
          const cell = element('div', {
            role: 'gridcell', class: 'ppn-square', 'data-square': square.name,
            'aria-label': squareName(square), 'data-x': String(x), 'data-y': String(y),
          });
          if (square.pieces.length) cell.dataset.pieces = String(square.pieces.length);
          cell.style.left = (square.left * 100) + '%';
          cell.style.top = (square.top * 100) + '%';
          cell.style.width = (square.width * 100) + '%';
          cell.style.height = (square.height * 100) + '%';
          return cell;
        });
        rows.append(element('div', { role: 'row', class: 'ppn-row' }, cells));
      });
      this.squares.replaceChildren(rows);
      this.squares.setAttribute('aria-label', 'Board after ' + caption(state) +
        (this.playable ? ': arrows move between squares, Enter picks a piece and drops it' : ''));
      this.squares.hidden = false;
      this.squaresDrawn += 1;
      this.squares.dataset.drawn = String(this.squaresDrawn);
      const keep = this.cursor && names.includes(this.cursor) ? this.cursor : names[0];
      this.setCursor(keep, this.squares.contains(document.activeElement));
      const lines = grid.text.length ? grid.text : ['No pieces on the board'];
      this.boardText.replaceChildren(...lines.map((line) => element('li', { text: line })));
      this.placeSquares();
    }

    /** Lays the squares exactly over the picture as drawn (it is scaled to fit). */
    placeSquares() {
      const drawn = this.picture.querySelector('svg, img');
      if (!drawn) return;
      const stage = this.stage.getBoundingClientRect();
      const box = drawn.getBoundingClientRect();
      Object.assign(this.squares.style, {
        left: (box.left - stage.left) + 'px',
        top: (box.top - stage.top) + 'px',
        width: box.width + 'px',
        height: box.height + 'px',
      });
    }

    cell(name) {
      return this.squares.querySelector('[data-square="' + CSS.escape(name) + '"]');
    }

    hasPieces(name) {
      const cell = this.cell(name);
      return Boolean(cell && cell.dataset.pieces);
    }

    /** The keyboard's square: the one cell of the board that takes focus (roving focus). */
    setCursor(name, focus) {
      if (!name) return;
      // One square takes focus (roving focus); the others are not focusable at all, so that
      // a click on one leaves the focus, and the keys, to the viewer.
      for (const cell of this.squares.querySelectorAll('[tabindex]')) cell.removeAttribute('tabindex');
      const cell = this.cell(name);
      if (!cell) return;
      cell.tabIndex = 0;
      this.cursor = name;
      if (focus) cell.focus();
    }

    onSquareKey(event) {
      const cell = event.target.closest('[data-square]');
      if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      let handled = true;
      if (moves[event.key]) {
        const [dx, dy] = moves[event.key];
        const x = Number(cell.dataset.x) + dx;
        const y = Number(cell.dataset.y) + dy;
        const next = this.squares.querySelector('[data-x="' + x + '"][data-y="' + y + '"]');
        if (next) this.setCursor(next.dataset.square, true);
      } else if (event.key === 'Enter' || event.key === ' ') {
        this.activate(cell.dataset.square);
      } else if (event.key === 'Escape') {
        if (this.picked || !this.question.hidden) this.cancelPick('cancelled'); else handled = false;
      } else {
        handled = false;
      }
      if (handled) {
        // The viewer's own keys (← → space) would step the game.
        event.preventDefault();
        event.stopPropagation();
      }
    }

    /** A square chosen by click or key: pick what is on it, or drop the piece picked. */
    activate(name) {
      if (!this.picked) {
        if (this.hasPieces(name)) this.pick(name); else this.say('Nothing on ' + name + ' to move.', 'info');
      } else if (this.picked === name) {
        this.cancelPick('put back');
      } else {
        this.drop(name);
      }
    }

    async pick(name) {
      if (!this.playable) {
        this.say('This board shows the game; it does not take moves.', 'info');
        return;
      }
      this.cancelPick();
      this.picked = name;
      const cell = this.cell(name);
      cell.classList.add('ppn-picked');
      cell.setAttribute('aria-selected', 'true');
      const state = this.current;
      const ticket = this.drawing;
      let targets;
      try {
        targets = this.source.targets ? await this.source.targets(this.game, state.ref, name) : { any: true };
      } catch {
        targets = { any: true };
      }
      if (ticket !== this.drawing || this.picked !== name) return;
      if (targets.readOnly) {
        this.cancelPick();
        this.say('This board takes no move: ' + targets.readOnly + '.', 'refused');
        return;
      }
      const what = cell.getAttribute('aria-label').split(', ').slice(1).join(', ');
      if (targets.only) {
        for (const target of targets.only) {
          const found = this.cell(target);
          if (!found) continue;
          found.classList.add('ppn-target');
          found.setAttribute('aria-label', found.getAttribute('aria-label') + ', a legal move');
        }
        this.say(targets.only.length
          ? 'Picked the ' + what + ' on ' + name + '; it can go to ' + targets.only.join(', ') + '.'
          : 'The ' + what + ' on ' + name + ' has no legal move.', 'info');
      } else {
        this.say('Picked the ' + what + ' on ' + name + '; choose where it goes.', 'info');
      }
    }

    /** Forgets the piece picked (and any question asked). */
    cancelPick(why) {
      const had = this.picked || !this.question.hidden;
      this.picked = null;
      this.question.hidden = true;
      this.question.replaceChildren();
      for (const cell of this.squares.querySelectorAll('.ppn-picked, .ppn-target')) {
        cell.classList.remove('ppn-picked', 'ppn-target');
        cell.removeAttribute('aria-selected');
        cell.setAttribute('aria-label', cell.getAttribute('aria-label').replace(/, a legal move$/, ''));
      }
      if (why && had) this.say('Move ' + why + '.', 'info');
    }

    /** Drops the piece picked on `to`; a square that is no legal target is refused with the rules' reason. */
    drop(to) {
      const from = this.picked;
      this.cancelPick();
      this.enter(from, to, {});
    }

    /** Asks the source to write the move; a question first where it needs an answer. */
    async enter(from, to, choice) {
      const state = this.current;
      if (!state) return;
      let answer;
      try {
        answer = await this.source.enterMove(this.game, state.ref, from, to, choice);
      } catch (error) {
        this.say('The move cannot be written: ' + (error && error.message || error), 'refused');
        return;
      }
      if (answer.refused) {
        this.say('Not written: ' + answer.refused, 'refused');
      } else if (answer.ask) {
        this.ask(answer.ask, from, to, choice);
      } else if (answer.edit) {
        try {
          await this.source.write(answer.edit);
          this.say('Written: ' + answer.edit.written, 'written');
        } catch (error) {
          this.say('The move cannot be written: ' + (error && error.message || error), 'refused');
        }
      }
    }

    ask(question, from, to, choice) {
      const options = question === 'capture-or-stack'
        ? [['Take what is on ' + to, { capture: 1 }, 'capture'], ['Stack on top of it', { capture: 0 }, 'stack']]
        : [['Insert it here (later moves follow)', { placement: 'insert' }, 'insert'],
          ['Replace the rest of the game', { placement: 'replace' }, 'replace']];
      const prompt = question === 'capture-or-stack'
        ? 'There is a piece on ' + to + '.'
        : 'This is not the game\u2019s last move.';
      const buttons = options.map(([label, more, id]) => {
        const button = element('button', { type: 'button', 'data-testid': 'answer-' + id, text: label });
        button.addEventListener('click', () => {
          this.cancelPick();
          this.enter(from, to, Object.assign({}, choice, more));
        });
        return button;
      });
      const cancel = element('button', { type: 'button', 'data-testid': 'answer-cancel', text: 'Cancel' });
      cancel.addEventListener('click', () => this.cancelPick('cancelled'));
      this.question.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          this.cancelPick('cancelled');
          this.setCursor(to, true);
        }
      });
      this.question.setAttribute('aria-label', prompt);
      this.question.replaceChildren(element('span', { text: prompt }), ...buttons, cancel);
      this.question.hidden = false;
      buttons[0].focus();
    }

    /** Says something of a move: shown under the board, and read by screen readers. */
    say(text, kind) {
      this.message.textContent = text;
      this.message.dataset.kind = kind;
      this.message.hidden = false;
      this.announcement.textContent = text;
    }

    /** Announces the state shown: its label and move, and what it changed, in words. */
    async announce() {
      const state = this.current;
      if (!state) return;
      const ticket = this.drawing;
      let change = '';
      if (this.source.change && state.text) {
        try {
          change = await this.source.change(this.game, state.ref);
        } catch {
          change = '';
        }
      }
      if (ticket !== this.drawing) return;
      this.announcement.textContent = caption(state) + (change ? ': ' + change : '');
    }

    updateControls() {
      const count = this.states.length;
      const atStart = this.index <= 0;
      const atEnd = this.index >= count - 1;
      this.buttons.first.disabled = atStart || count === 0;
      this.buttons.prev.disabled = atStart || count === 0;
      this.buttons.next.disabled = atEnd || count === 0;
      this.buttons.last.disabled = atEnd || count === 0;
      this.buttons.play.disabled = count < 2;
      this.buttons.play.innerHTML = icon(this.playing ? 'pause' : 'play');
      this.buttons.play.title = this.playing ? 'Pause (space)' : 'Play (space)';
      this.buttons.play.setAttribute('aria-label', this.buttons.play.title);
      this.buttons.play.setAttribute('aria-pressed', String(this.playing));
      const lineName = count && this.line > 0 ? this.games[this.game].lines[this.line].name + ' · ' : '';
      this.position.textContent = count ? lineName + this.index + ' / ' + (count - 1) : '';
      for (const current of this.moveList.querySelectorAll('.ppn-current')) {
        current.classList.remove('ppn-current');
        current.removeAttribute('aria-current');
      }
      // The state shown is listed under its own line, or, before a variation's own moves,
      // under the line it comes from.
      let line = this.line;
      let index = this.index;
      const lines = this.games[this.game] ? this.games[this.game].lines : [];
      while (line > 0 && index <= lines[line].branch) {
        line = lines[line].parent;
      }
      const item = this.moveList.querySelector('.ppn-move[data-line="' + line + '"][data-index="' + index + '"]');
      if (item) {
        item.classList.add('ppn-current');
        item.setAttribute('aria-current', 'step');
        const list = this.moveList;
        const top = item.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = Math.max(0, top - list.clientHeight / 2);
        }
      }
    }
  }

  PpnViewer.caption = caption;
  root.PpnViewer = PpnViewer;
})(typeof window !== 'undefined' ? window : globalThis);
