// The page's worker: ppn-ls's core, compiled to WebAssembly, analyses the document off the
// page's thread, so that the page stays responsive whatever the text. It holds one
// Session (the document being edited) and answers the page's requests in order:
// `{id, op, args}` in, `{id, result}` or `{id, error, panic}` out.
//
// The page sends the core first (`init`): a compiled module, its bytes (from file://,
// where nothing can be fetched) or its address. A panic in the core traps the instance:
// the worker says so with the panic's message and the page starts a fresh worker (keeping
// its text).
import {
  initSync, Session, token_kinds as tokenKinds, fail_for_test as failForTest, format_of as formatOf,
} from 'ppn-ls-wasm';

let session = null;
let lastPanic = '';
globalThis.ppnPanicked = (message) => {
  lastPanic = message;
};

/** Compiles the core (once per worker) from a Module the page kept, bytes, or an address. */
async function compile(source) {
  if (source.module) return source.module;
  if (source.bytes) return WebAssembly.compile(source.bytes);
  const response = fetch(source.url);
  try {
    return await WebAssembly.compileStreaming(response);
  } catch {
    // Served without `application/wasm`: compiled from its bytes.
    return WebAssembly.compile(await (await fetch(source.url)).arrayBuffer());
  }
}

let ready = null;

async function init(source) {
  const module = await compile(source);
  initSync({ module });
  session = new Session();
  // The page keeps the compiled module: a worker started after this one skips compiling.
  return { kinds: tokenKinds(), module };
}

const operations = {
  init: (source) => {
    ready = ready || init(source);
    return ready;
  },
  // Diagnostics and games apart: the page shows the diagnostics first.
  open: (name, text) => ({ summary: session.open_without_games(name, text), games: session.games() }),
  // `follow`: an offset whose state the page shows next (a move just written), or -1.
  edit: (from, to, inserted, withGames, follow = -1) => ({
    summary: session.edit(from, to, inserted, false),
    games: withGames ? session.games() : null,
    at: follow >= 0 ? session.state_at(follow) : null,
  }),
  games: () => session.games(),
  summary: (withGames) => session.summary(withGames),
  picture: (game, index, flipped) => session.picture(game, index, flipped),
  png: (game, index, flipped) => session.png(game, index, flipped),
  gif: (game, flipped, frameMs) => session.gif(game, flipped, frameMs),
  stateAt: (offset) => session.state_at(offset),
  hover: (offset) => session.hover(offset),
  tokens: (from, to) => session.tokens(from, to),
  text: () => session.text(),
  grid: (game, index, flipped) => session.grid(game, index, flipped),
  change: (game, index) => session.change(game, index),
  targets: (game, index, from) => session.targets(game, index, from),
  enterMove: (game, index, from, to, capture, placement) =>
    session.enter_move(game, index, from, to, capture, placement),
  formatOf: (name, text) => formatOf(name, text),
  failForTest: () => failForTest(),
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  const started = performance.now();
  try {
    if (op !== 'init') await ready;
    const operation = operations[op];
    if (!operation) throw new Error('unknown operation ' + op);
    const result = await operation(...(args || []));
    const transfer = result instanceof Uint8Array || result instanceof Uint32Array ? [result.buffer] : [];
    self.postMessage({ id, result, ms: performance.now() - started }, transfer);
  } catch (error) {
    const panic = lastPanic;
    lastPanic = '';
    self.postMessage({ id, error: String(error && error.message || error), panic });
  }
};
