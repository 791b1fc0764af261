// ppn-ls in the browser: an editor with ppn-ls's highlighting, diagnostics and hovers, the
// board of the move under the cursor, and the game viewer's controls. Everything ppn-ls
// says comes from its core, compiled to WebAssembly and run in a worker (engine.js); this
// file is the page's glue.
import { EditorState, StateEffect, StateField, RangeSetBuilder } from '@codemirror/state';
import {
  EditorView, Decoration, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, hoverTooltip,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { Engine } from './engine.js';
import { markdownToHtml } from './markdown.js';
import { decodeShared, encodeShared } from './share.js';
import examples from 'ppn-examples';

const $ = (testId) => document.querySelector(`[data-testid="${testId}"]`);

// ---------------------------------------------------------------------------------------
// The worker.

const engine = new Engine(
  () => new Worker(URL.createObjectURL(new Blob([globalThis.PPN_ENGINE_SOURCE], { type: 'text/javascript' }))),
  loadCore,
  (error) => {
    // The next request starts a fresh worker, which has to be sent the text again.
    page.synced = false;
    showProblem(error);
  },
);

/**
 * Where a worker finds ppn-ls's WebAssembly: next to the page, or (from file://, where a
 * page can fetch nothing) in engine-wasm.js, a script that carries it as base64.
 */
async function loadCore() {
  if (location.protocol !== 'file:') {
    return { url: new URL('ppn_ls_web_bg.wasm', location.href).href };
  }
  if (!globalThis.PPN_ENGINE_WASM) {
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = 'engine-wasm.js';
      script.onload = resolve;
      script.onerror = () => reject(new Error('engine-wasm.js is missing next to the page'));
      document.head.append(script);
    });
  }
  const binary = atob(globalThis.PPN_ENGINE_WASM);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return { bytes };
}

// ---------------------------------------------------------------------------------------
// What the page shows.

const page = {
  name: 'game.ppn',
  /** Whether the worker holds the editor's text (as of `sentVersion`). */
  synced: false,
  /** Edits the worker has not been sent yet. */
  unsent: null,
  version: 0,
  /** The text's version last sent to the worker; whose diagnostics and games are shown. */
  sentVersion: -1,
  shownVersion: -1,
  gamesVersion: -1,
  busy: false,
  games: [],
  format: 'ppn',
  diagnostics: [],
  kinds: [],
  lastAnalysisMs: 0,
  problem: null,
  /** Bumped by each board asked for the cursor and by each step in the viewer. */
  followTicket: 0,
};

// Highlighting: marks from the core's tokens, replaced after each analysis.
const setHighlights = StateEffect.define();
const highlights = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setHighlights)) marks = effect.value;
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const hovers = hoverTooltip(async (view, pos) => {
  if (!page.synced || page.unsent) return null;
  let found;
  try {
    found = JSON.parse(await engine.request('hover', [pos]));
  } catch {
    return null;
  }
  if (!found) return null;
  return {
    pos: found.from,
    end: found.to,
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'hover';
      dom.innerHTML = markdownToHtml(found.markdown);
      if (found.board) {
        const title = document.createElement('p');
        title.className = 'hover-board-label';
        title.textContent = 'Board ' + found.board.label;
        // ppn-ls's own picture (an SVG it drew), not text from the document.
        const board = document.createElement('div');
        board.className = 'hover-board';
        board.innerHTML = found.board.svg;
        dom.append(title, board);
      }
      return { dom };
    },
  };
}, { hoverTime: 350 });

const editor = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: '',
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      lintGutter(),
      highlights,
      hovers,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'Game text' }),
      keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          // Text pasted or dropped in place of everything: its notation is told from it.
          if (update.transactions.some((tr) => tr.isUserEvent('input.paste') || tr.isUserEvent('input.drop')) &&
            wholeTextReplaced(update)) {
            page.detect = true;
          }
          page.unsent = page.unsent ? page.unsent.compose(update.changes) : update.changes;
          page.version += 1;
          scheduleAnalysis();
        }
        if (update.selectionSet || update.docChanged) scheduleFollow();
        if (update.viewportChanged && !update.docChanged) scheduleHighlights();
      }),
    ],
  }),
});

const viewer = new PpnViewer($('viewer'), { games: [], picture: () => '' }, {
  keys: document,
  // After the board is drawn: the editor's update takes longer than the step.
  onStep: (game, state) => {
    // A step outranks a board still on its way for where the cursor was.
    page.followTicket += 1;
    setTimeout(() => moveCursorTo(game, state), 0);
  },
});

// ---------------------------------------------------------------------------------------
// Analysis: the editor's edits are sent to the worker one batch at a time; what comes back
// is shown only if the text has not changed meanwhile.

let analysisTimer = null;
function scheduleAnalysis(delay = 0) {
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(analyze, delay);
}

async function analyze() {
  if (page.busy) return;
  page.busy = true;
  const version = page.version;
  const generation = engine.generation;
  let answer;
  const started = performance.now();
  try {
    if (page.detect) {
      page.detect = false;
      const format = await engine.request('formatOf', ['', editor.state.doc.toString()]);
      const name = nameFor(format, page.name);
      if (name !== page.name) {
        setName(name);
        page.synced = false;
      }
    }
    if (!page.synced || engine.generation !== generation || !engine.worker) {
      page.unsent = null;
      answer = await engine.request('open', [page.name, editor.state.doc.toString()]);
    } else if (page.unsent) {
      const edit = oneEdit(page.unsent, editor.state.doc);
      page.unsent = null;
      // A long text's states are listed again once typing pauses; its diagnostics at once.
      const withGames = editor.state.doc.length < LONG_TEXT;
      // A move written from the board: the worker says which state it is, with the games.
      const follow = page.followAt === undefined ? -1 : page.followAt;
      page.followAt = undefined;
      answer = await engine.request('edit', [edit.from, edit.to, edit.text, withGames, follow]);
      if (!withGames) scheduleGames();
    } else {
      page.busy = false;
      return;
    }
    page.synced = true;
    page.sentVersion = version;
    clearProblem();
  } catch (error) {
    page.busy = false;
    if (error.kind === 'error') showProblem(error);
    return;
  }
  page.busy = false;
  page.lastAnalysisMs = performance.now() - started;
  if (page.version !== version) {
    // Typed meanwhile: the answer is already old.
    scheduleAnalysis();
    return;
  }
  show(answer);
}

/** A text this long (in UTF-16 units) gets its states listed once typing pauses. */
const LONG_TEXT = 200000;

let gamesTimer = null;
function scheduleGames() {
  clearTimeout(gamesTimer);
  gamesTimer = setTimeout(refreshGames, 300);
}

async function refreshGames() {
  if (page.busy || page.unsent || !page.synced) {
    if (page.synced) scheduleGames();
    return;
  }
  const version = page.version;
  let answer;
  try {
    answer = await engine.request('games', []);
  } catch {
    return;
  }
  if (version === page.version) showGames(JSON.parse(answer));
}

/** The changes since the last analysis as one replacement of the old text. */
function oneEdit(changes, doc) {
  let fromA = Infinity;
  let toA = -Infinity;
  let fromB = Infinity;
  let toB = -Infinity;
  changes.iterChangedRanges((a0, a1, b0, b1) => {
    fromA = Math.min(fromA, a0);
    toA = Math.max(toA, a1);
    fromB = Math.min(fromB, b0);
    toB = Math.max(toB, b1);
  });
  return { from: fromA, to: toA, text: doc.sliceString(fromB, toB) };
}

/**
 * An analysis's answer: its diagnostics at once, then (in a task of its own, so that the
 * diagnostics are on screen first) its games, if it has them.
 */
function show(answer) {
  const summary = JSON.parse(answer.summary);
  page.format = summary.format;
  page.diagnostics = summary.diagnostics;
  forgetPictures();
  const length = editor.state.doc.length;
  const clamp = (n) => Math.min(Math.max(n, 0), length);
  editor.dispatch(setDiagnostics(editor.state, page.diagnostics.map((d) => ({
    from: clamp(d.from),
    to: clamp(Math.max(d.to, d.from)),
    severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : d.severity === 'hint' ? 'hint' : 'info',
    source: d.code,
    message: d.message,
  }))));
  listDiagnostics();
  updateStatus();
  page.shownVersion = page.sentVersion;
  scheduleHighlights(0);
  if (answer.games !== null && answer.games !== undefined) {
    const version = page.version;
    setTimeout(() => {
      if (version === page.version) showGames(JSON.parse(answer.games), answer.at ? JSON.parse(answer.at) : null);
    }, 0);
  }
}

function showGames(games, at = null) {
  page.games = games;
  page.gamesVersion = page.sentVersion;
  forgetPictures();
  const source = { games, picture, prefetch, grid, change, targets, enterMove, write: writeMove };
  if (at) {
    // The move just written, shown at once (not the board before it, then this one).
    viewer.setSource(source, { game: at.game, ref: at.ref });
    updateStatus();
    return;
  }
  viewer.setSource(source);
  updateStatus();
  if (page.pendingPosition === 'last' && page.games.length) {
    // Opened on an example: its last move, a board with pieces on it.
    page.pendingPosition = null;
    viewer.step(Infinity);
  } else if (page.pendingPosition && page.games.length) {
    // Opened from a shared link: its move.
    const { game, ref } = page.pendingPosition;
    page.pendingPosition = null;
    viewer.showRef(game, ref);
    moveCursorTo(game, viewer.current);
  } else {
    scheduleFollow(0);
  }
}

// Pictures of the text analysed last, by game, state and side: a step to a picture asked
// for ahead (the moves before and after the one shown) draws at once.
const pictures = new Map();
const MOST_PICTURES_KEPT = 64;

function forgetPictures() {
  pictures.clear();
}

function picture(game, ref, flipped) {
  const key = `${game}:${ref}:${flipped}`;
  const kept = pictures.get(key);
  if (kept !== undefined) return kept;
  const asked = engine.request('picture', [game, ref, flipped]);
  pictures.set(key, asked);
  asked.then((svg) => {
    // Resolved: kept as text, so that it is drawn without waiting a turn.
    if (pictures.get(key) === asked) pictures.set(key, svg);
  }, () => pictures.delete(key));
  while (pictures.size > MOST_PICTURES_KEPT) pictures.delete(pictures.keys().next().value);
  return asked;
}

function prefetch(game, refs, flipped) {
  for (const ref of refs) picture(game, ref, flipped);
}

// ---------------------------------------------------------------------------------------
// The board to play on: its squares, a picked piece's targets, and moves written into the
// text through the editor (one transaction: one undo takes the move back).

/** Whether the games shown are those of the text as it is. */
function upToDate() {
  return page.synced && !page.unsent && page.gamesVersion === page.version && page.sentVersion === page.version;
}

async function grid(game, ref, flipped) {
  return JSON.parse(await engine.request('grid', [game, ref, flipped]));
}

function change(game, ref) {
  return engine.request('change', [game, ref]);
}

async function targets(game, ref, from) {
  return JSON.parse(await engine.request('targets', [game, ref, from]));
}

async function enterMove(game, ref, from, to, choice) {
  if (!upToDate()) return { refused: 'the text is being read again; make the move once the board is redrawn' };
  page.moveStarted = performance.now();
  const capture = choice.capture === undefined ? -1 : choice.capture;
  return JSON.parse(await engine.request('enterMove', [game, ref, from, to, capture, choice.placement || '']));
}

function writeMove(edit) {
  if (!upToDate()) throw new Error('the text changed while the move was made; make it again');
  editor.dispatch({
    changes: { from: edit.from, to: edit.to, insert: edit.text },
    selection: { anchor: edit.cursor },
    userEvent: 'input.move',
  });
  page.followAt = edit.cursor;
  revealInEditor(edit.cursor);
  page.moveWritten = edit;
}

// ---------------------------------------------------------------------------------------
// Highlighting of what is on screen.

let highlightTimer = null;
function scheduleHighlights(delay = 50) {
  clearTimeout(highlightTimer);
  highlightTimer = setTimeout(highlight, delay);
}

async function highlight() {
  if (!page.synced || page.unsent) return;
  const version = page.version;
  const { from, to } = editor.viewport;
  let numbers;
  try {
    numbers = await engine.request('tokens', [from, to]);
  } catch {
    return;
  }
  if (version !== page.version) return;
  const builder = new RangeSetBuilder();
  const length = editor.state.doc.length;
  for (let i = 0; i + 2 < numbers.length; i += 3) {
    const start = numbers[i];
    const end = Math.min(numbers[i + 1], length);
    if (start < end) {
      builder.add(start, end, Decoration.mark({ class: 'tok-' + (page.kinds[numbers[i + 2]] || 'other') }));
    }
  }
  editor.dispatch({ effects: setHighlights.of(builder.finish()) });
}

// ---------------------------------------------------------------------------------------
// The board follows the cursor, and the viewer moves the cursor.

let followTimer = null;
function scheduleFollow(delay = 80) {
  clearTimeout(followTimer);
  followTimer = setTimeout(follow, delay);
}

async function follow() {
  if (!page.synced || page.unsent || viewer.playing) return;
  const version = page.version;
  const ticket = ++page.followTicket;
  let found;
  try {
    found = JSON.parse(await engine.request('stateAt', [editor.state.selection.main.head]));
  } catch {
    return;
  }
  if (found && version === page.version && ticket === page.followTicket) {
    viewer.showRef(found.game, found.ref);
  }
}

function moveCursorTo(game, state) {
  if (!state || !page.games[game]) return;
  const at = state.from === null ? page.games[game].from : state.from;
  if (at === null || at === undefined || at > editor.state.doc.length) return;
  editor.dispatch({ selection: { anchor: at } });
  revealInEditor(at);
}

/**
 * Scrolls the editor, and only the editor, to show `at`: on a phone the page is one column,
 * and scrolling the window to the text would take the board off the screen.
 */
function revealInEditor(at) {
  const scroller = editor.scrollDOM;
  const block = editor.lineBlockAt(at);
  const top = block.top + editor.documentTop - scroller.getBoundingClientRect().top + scroller.scrollTop;
  if (top < scroller.scrollTop || top + block.height > scroller.scrollTop + scroller.clientHeight) {
    scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 2);
  }
}

// ---------------------------------------------------------------------------------------
// Diagnostics list and status.

function listDiagnostics() {
  const list = $('diagnostics');
  const doc = editor.state.doc;
  const items = document.createDocumentFragment();
  for (const d of page.diagnostics) {
    const line = doc.lineAt(Math.min(d.from, doc.length));
    const column = Math.min(d.from, doc.length) - line.from + 1;
    const item = document.createElement('li');
    item.className = 'diagnostic ' + d.severity;
    item.tabIndex = 0;
    item.dataset.from = String(d.from);
    item.dataset.code = d.code;
    const place = document.createElement('span');
    place.className = 'place';
    place.textContent = `${line.number}:${column}`;
    const kind = document.createElement('span');
    kind.className = 'kind';
    kind.textContent = `${d.severity}[${d.code}]`;
    const message = document.createElement('span');
    message.className = 'message';
    message.textContent = d.message;
    item.append(place, kind, message);
    items.append(item);
  }
  list.replaceChildren(items);
  list.hidden = page.diagnostics.length === 0;
}

$('diagnostics').addEventListener('click', (event) => jumpToDiagnostic(event.target.closest('.diagnostic')));
$('diagnostics').addEventListener('keydown', (event) => {
  if (event.key === 'Enter') jumpToDiagnostic(event.target.closest('.diagnostic'));
});

function jumpToDiagnostic(item) {
  if (!item) return;
  const at = Math.min(Number(item.dataset.from), editor.state.doc.length);
  editor.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
  editor.focus();
}

function updateStatus() {
  $('notation').value = page.format;
  const count = (severity) => page.diagnostics.filter((d) => d.severity === severity).length;
  const errors = count('error');
  const warnings = count('warning');
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  $('status').textContent = `${formatNames[page.format] || page.format} · ${plural(errors, 'error')}, ` +
    `${plural(warnings, 'warning')} · ${plural(page.games.length, 'game')} · analysed in ${page.lastAnalysisMs.toFixed(1)} ms`;
}

const formatNames = {
  ppn: 'PPN', otn: 'OpenTafl', annofen: 'annoFEN', xay: 'XAY', fen: 'xiangqi FEN', wxf: 'WXF',
};

function showProblem(error) {
  page.problem = error;
  const banner = $('problem');
  const what = error.kind === 'panic'
    ? 'ppn-ls failed on this text (a bug: please report it with the text). It said: '
    : error.kind === 'timeout' ? '' : 'ppn-ls failed: ';
  banner.textContent = what + error.message + '. Your text is kept; edit it to try again.';
  banner.hidden = false;
}

function clearProblem() {
  page.problem = null;
  $('problem').hidden = true;
}

// ---------------------------------------------------------------------------------------
// Opening, examples, sharing and downloads.

/** Each notation's file extension, for a text whose notation is chosen or told from it. */
const extensions = { ppn: '.ppn', otn: '.otg', annofen: '.annofen', xay: '.xay', fen: '.fen', wxf: '.wxf' };

/** `name` with the extension of `format` (`game.ppn` read as OpenTafl: `game.otg`). */
function nameFor(format, name) {
  const extension = extensions[format];
  if (!extension || name.toLowerCase().endsWith(extension)) return name;
  return (name.replace(/\.[^.]*$/, '') || 'game') + extension;
}

function setName(name) {
  page.name = name;
  $('file-name').textContent = name;
  document.title = `${name} · ppn-ls`;
}

/** Whether an update replaced (nearly) the whole text: a new game pasted, not a line. */
function wholeTextReplaced(update) {
  let replaced = 0;
  update.changes.iterChangedRanges((fromA, toA) => {
    replaced += toA - fromA;
  });
  return update.startState.doc.length === 0 || replaced >= update.startState.doc.length * 0.9;
}

$('notation').addEventListener('change', () => {
  setName(nameFor($('notation').value, page.name));
  page.synced = false;
  scheduleAnalysis();
});

function open(name, text, position) {
  page.synced = false;
  page.unsent = null;
  page.detect = false;
  setName(name);
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text }, selection: { anchor: 0 } });
  page.unsent = null;
  page.pendingPosition = position || null;
  scheduleAnalysis();
}

const exampleChoice = $('examples');
for (const example of examples) {
  const option = document.createElement('option');
  option.value = example.name;
  option.textContent = example.title;
  exampleChoice.append(option);
}
exampleChoice.addEventListener('change', () => {
  const example = examples.find((e) => e.name === exampleChoice.value);
  if (example) open(example.name, example.text);
  exampleChoice.value = '';
});

$('open-file').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  if (file) open(file.name, await file.text());
  event.target.value = '';
});

document.addEventListener('dragover', (event) => {
  event.preventDefault();
  document.body.classList.add('dropping');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
document.addEventListener('drop', async (event) => {
  event.preventDefault();
  document.body.classList.remove('dropping');
  const file = event.dataTransfer.files[0];
  if (file) open(file.name, await file.text());
});

$('share').addEventListener('click', async () => {
  const fragment = await encodeShared({
    name: page.name,
    text: editor.state.doc.toString(),
    game: viewer.game,
    ref: viewer.current ? viewer.current.ref : 0,
  });
  const link = location.href.split('#')[0] + '#' + fragment;
  const output = $('share-link');
  output.value = link;
  output.hidden = false;
  output.select();
  // `window.`: `history` here is CodeMirror's undo history, imported above.
  window.history.replaceState(null, '', '#' + fragment);
  try {
    await navigator.clipboard.writeText(link);
    $('share').title = 'Link copied';
  } catch {
    $('share').title = 'Copy the link shown';
  }
});

function download(bytes, type, suffix) {
  const base = page.name.replace(/\.[^.]*$/, '') || 'game';
  const state = viewer.current;
  const label = suffix === 'gif' ? '' : '-' + (state ? state.label : 'board').replace(/[^\w.-]+/g, '_');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = `${base}${label}.${suffix}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function downloading(button, make) {
  button.disabled = true;
  try {
    await make();
  } catch (error) {
    showProblem(error);
  } finally {
    button.disabled = false;
  }
}

$('download-svg').addEventListener('click', (event) => downloading(event.currentTarget, async () => {
  download(await picture(viewer.game, viewer.current.ref, viewer.flipped), 'image/svg+xml', 'svg');
}));
$('download-png').addEventListener('click', (event) => downloading(event.currentTarget, async () => {
  download(await engine.request('png', [viewer.game, viewer.current.ref, viewer.flipped]), 'image/png', 'png');
}));
$('download-gif').addEventListener('click', (event) => downloading(event.currentTarget, async () => {
  download(await engine.request('gif', [viewer.game, viewer.flipped, 1000], 120000), 'image/gif', 'gif');
}));

// ---------------------------------------------------------------------------------------
// Start: the shared game in the address, or the first example.

async function start() {
  try {
    const ready = await engine.start();
    page.kinds = ready.kinds;
  } catch (error) {
    showProblem(error);
  }
  const shared = location.hash.length > 1 ? await decodeShared(location.hash.slice(1)).catch(() => null) : null;
  if (shared) {
    open(shared.name, shared.text, { game: shared.game, ref: shared.ref });
  } else {
    open(examples[0].name, examples[0].text, 'last');
  }
}

// The text folds away (on a phone, the board then has the screen).
$('editor-toggle').addEventListener('click', () => {
  const section = document.querySelector('.editing');
  const folded = section.classList.toggle('folded');
  $('editor-toggle').setAttribute('aria-expanded', String(!folded));
  $('editor-toggle').textContent = folded ? 'Show the text' : 'Hide the text';
});

// For tests and embedding: the page's parts.
window.ppnPage = { editor, viewer, engine, page, open };
start();
