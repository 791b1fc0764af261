// The page's side of the worker (worker.js): requests and their answers, and a watchdog.
// A request that takes longer than its time, or a panic in the core, ends the worker; the
// next request starts a fresh one. The page keeps its text and sends it again.

/** Why a request failed: the core panicked, or the worker was stopped. */
export class EngineError extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind;
  }
}

export class Engine {
  /**
   * @param {() => Worker} makeWorker starts a worker.
   * @param {() => Promise<object>} core where a new worker finds the core: `{url}` or `{bytes}`.
   * @param {(error: EngineError) => void} onLost called when a worker is given up.
   */
  constructor(makeWorker, core, onLost) {
    this.makeWorker = makeWorker;
    this.core = core;
    /** The compiled core, once a worker has compiled it. */
    this.module = null;
    this.onLost = onLost;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    /** Bumped whenever a fresh worker starts: what it holds must be sent again. */
    this.generation = 0;
  }

  ensureWorker() {
    if (this.worker) return;
    this.generation += 1;
    this.worker = this.makeWorker();
    this.worker.onmessage = (event) => this.answered(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.lose(new EngineError('the worker failed: ' + (event.message || 'unknown error'), 'crash'));
    };
    this.ready = (this.module ? Promise.resolve({ module: this.module }) : this.core())
      .then((source) => this.call('init', [source], 60000))
      .then((ready) => {
        this.module = ready.module;
        this.kinds = ready.kinds;
        return ready;
      });
  }

  answered(message) {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.error === undefined) {
      waiting.resolve(message.result);
    } else if (message.panic) {
      waiting.reject(new EngineError(message.panic, 'panic'));
      this.lose(new EngineError(message.panic, 'panic'));
    } else {
      waiting.reject(new EngineError(message.error, 'error'));
    }
  }

  /** Ends the worker and fails every request waiting for it. */
  lose(error) {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.pending.clear();
    this.onLost(error);
  }

  call(op, args, timeoutMs) {
    this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.lose(new EngineError(
          'ppn-ls took longer than ' + Math.round(timeoutMs / 1000) + ' s and was stopped', 'timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** A request, once the worker is ready. */
  async request(op, args, timeoutMs = 20000) {
    this.ensureWorker();
    await this.ready;
    return this.call(op, args, timeoutMs);
  }

  /** Waits for the worker and says what it has (`{kinds}`). */
  async start() {
    this.ensureWorker();
    return this.ready;
  }
}
