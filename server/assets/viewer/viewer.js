// The game viewer: a board picture, a move list and controls (first, previous, next, last,
// play/pause with a speed, flip, keyboard ←/→/Home/End). One script for every page that
// shows a game: the one-file game `ppn-ls render --format html` writes, and the web page.
// It knows nothing of notations: a source gives the games' states and draws a state's
// picture. No dependency, no module system: it defines `PpnViewer` on the global object.
//
//   const viewer = new PpnViewer(element, {
//     games: [{ name, states: [{ label, text, comment, depth }] }],
//     picture: (game, index, flipped) => svgText,  // or a promise of it
//   }, { onStep: (game, index) => {}, keys: document });
//
// Parts carry `data-testid`s (board, move-list, first, prev, next, last, play, flip, speed,
// game) for tests and embedding; the board shows the current state's caption in its
// `title` and `data-label` attributes, as the picture's own title does.
(function (root) {
  'use strict';

  // A long game's move list shows this many moves around the current one (a page with a
  // hundred thousand list items would take seconds to lay out).
  const LISTED_AROUND = 500;

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

  function caption(state) {
    return state.text ? state.label + ' ' + state.text : state.label;
  }

  class PpnViewer {
    constructor(container, source, options) {
      this.options = options || {};
      this.game = 0;
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
      this.captionLine = element('figcaption', { class: 'ppn-caption' });
      this.board = element('figure', { class: 'ppn-board', 'data-testid': 'board' }, [this.picture, this.captionLine]);
      this.buttons = {
        first: button('first', 'First move (Home)'),
        prev: button('prev', 'Previous move (←)'),
        play: button('play', 'Play (space)'),
        next: button('next', 'Next move (→)'),
        last: button('last', 'Last move (End)'),
        flip: button('flip', 'Flip the board (f)'),
      };
      this.speedChoice = element('select', { class: 'ppn-speed', 'data-testid': 'speed', 'aria-label': 'Speed' });
      for (const [label, ms] of SPEEDS) {
        const option = element('option', { value: String(ms), text: label });
        if (ms === this.speed) option.selected = true;
        this.speedChoice.append(option);
      }
      this.position = element('span', { class: 'ppn-position', 'aria-live': 'polite' });
      const controls = element('div', { class: 'ppn-controls', role: 'toolbar', 'aria-label': 'Moves' }, [
        this.buttons.first, this.buttons.prev, this.buttons.play, this.buttons.next, this.buttons.last,
        this.speedChoice, this.buttons.flip, this.position,
      ]);
      this.comment = element('p', { class: 'ppn-comment' });
      this.moveList = element('ol', { class: 'ppn-moves', 'data-testid': 'move-list' });
      this.root = element('div', { class: 'ppn-viewer', tabindex: '-1' }, [
        this.gameChoice, this.board, controls, this.comment, this.moveList,
      ]);
      container.append(this.root);

      this.buttons.first.addEventListener('click', () => this.step(-Infinity));
      this.buttons.prev.addEventListener('click', () => this.step(-1));
      this.buttons.next.addEventListener('click', () => this.step(1));
      this.buttons.last.addEventListener('click', () => this.step(Infinity));
      this.buttons.play.addEventListener('click', () => this.togglePlay());
      this.buttons.flip.addEventListener('click', () => this.flip());
      this.speedChoice.addEventListener('change', () => {
        this.speed = Number(this.speedChoice.value);
        if (this.timer !== null) {
          this.pause();
          this.play();
        }
      });
      this.gameChoice.addEventListener('change', () => {
        this.show(Number(this.gameChoice.value), 0, { announce: true });
      });
      this.moveList.addEventListener('click', (event) => {
        const item = event.target.closest('[data-index]');
        if (item) {
          this.show(this.game, Number(item.dataset.index), { announce: true });
        }
      });
    }

    /** New games (the text changed): the position is kept where it still exists. */
    setSource(source, position) {
      this.source = source;
      const games = source.games || [];
      const choices = document.createDocumentFragment();
      games.forEach((game, i) => {
        choices.append(element('option', { value: String(i), text: game.name || 'Game ' + (i + 1) }));
      });
      this.gameChoice.replaceChildren(choices);
      this.gameChoice.hidden = games.length < 2;
      const at = position || { game: this.game, index: this.index };
      this.listedGame = -1;
      this.listed = { start: 0, end: 0 };
      if (games.length === 0) {
        this.pause();
        this.picture.replaceChildren();
        this.captionLine.textContent = 'No game to show';
        this.board.removeAttribute('title');
        this.board.removeAttribute('data-label');
        this.moveList.replaceChildren();
        this.updateControls();
        return;
      }
      const game = Math.min(Math.max(at.game, 0), games.length - 1);
      this.show(game, at.index, { redraw: true });
    }

    get states() {
      const game = (this.source.games || [])[this.game];
      return game ? game.states : [];
    }

    /** Shows state `index` of game `game`. */
    show(game, index, how) {
      how = how || {};
      const games = this.source.games || [];
      if (!games[game]) return;
      const count = games[game].states.length;
      if (count === 0) return;
      const clamped = Math.min(Math.max(index, 0), count - 1);
      const changed = game !== this.game || clamped !== this.index;
      this.game = game;
      this.index = clamped;
      if (this.listedGame !== game || clamped < this.listed.start || clamped >= this.listed.end) {
        this.listMoves();
      }
      this.gameChoice.value = String(game);
      if (changed || how.redraw) {
        this.draw();
      }
      this.updateControls();
      if (how.announce && this.options.onStep) {
        this.options.onStep(this.game, this.index);
      }
    }

    /** Moves by `delta` states (±Infinity: to the first or last). */
    step(delta) {
      const last = this.states.length - 1;
      const target = delta === -Infinity ? 0 : delta === Infinity ? last : this.index + delta;
      this.show(this.game, target, { announce: true });
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
        this.show(this.game, 0, { announce: true });
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

    listMoves() {
      this.listedGame = this.game;
      const states = this.states;
      const start = Math.max(0, this.index - LISTED_AROUND);
      const end = Math.min(states.length, this.index + LISTED_AROUND);
      this.listed = { start, end };
      const items = document.createDocumentFragment();
      const more = (count, where) => element('li', {
        class: 'ppn-more', 'data-index': String(where), role: 'button', tabindex: '-1',
        text: '… ' + count + ' more',
      });
      if (start > 0) items.append(more(start, start - 1));
      for (let i = start; i < end; i += 1) {
        const state = states[i];
        const text = element('span', { class: 'ppn-move-text', text: state.text });
        const label = element('span', { class: 'ppn-move-label', text: state.label });
        const item = element('li', {
          'data-index': String(i), class: 'ppn-move', role: 'button', tabindex: '-1',
          title: caption(state),
        }, [label, text]);
        if (state.depth) {
          item.classList.add('ppn-variation');
          item.style.setProperty('--depth', String(state.depth));
        }
        items.append(item);
      }
      if (end < states.length) items.append(more(states.length - end, end));
      this.moveList.replaceChildren(items);
    }

    draw() {
      const state = this.states[this.index];
      if (!state) return;
      const title = caption(state);
      this.board.title = title;
      this.board.dataset.label = state.label;
      this.board.dataset.index = String(this.index);
      this.captionLine.textContent = title;
      this.comment.textContent = state.comment || '';
      this.comment.hidden = !state.comment;
      const ticket = ++this.drawing;
      const shown = (svg) => {
        // A later step may have been drawn first.
        if (ticket !== this.drawing) return;
        this.picture.innerHTML = svg;
        this.board.dataset.flipped = String(this.flipped);
      };
      let picture;
      try {
        picture = this.source.picture(this.game, this.index, this.flipped);
      } catch (error) {
        picture = Promise.reject(error);
      }
      Promise.resolve(picture).then(shown, (error) => {
        if (ticket !== this.drawing) return;
        this.picture.replaceChildren(element('p', { class: 'ppn-error', text: 'The board cannot be drawn: ' + error }));
      });
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
      this.position.textContent = count ? (this.index + ' / ' + (count - 1)) : '';
      for (const current of this.moveList.querySelectorAll('.ppn-current')) {
        current.classList.remove('ppn-current');
        current.removeAttribute('aria-current');
      }
      const item = this.moveList.querySelector('[data-index="' + this.index + '"].ppn-move');
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
