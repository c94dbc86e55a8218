// A page's Request for React Router, on the server's thread (server/web-handler.ts) and in a render thread
// (server/render-worker.mjs, plain JavaScript: a worker does not go through the TypeScript loader).

/**
 * A Request whose `signal` is the one given, as it is, for React Router and the loaders to follow. Given a signal,
 * undici's own Request makes a signal of its own follow it: an abort listener, a WeakRef and an entry in a
 * FinalizationRegistry each. A young collection keeps whatever a WeakRef points to, so every render's request (and
 * what its signal's listeners hold: the loaders' data, React's render) went to the old generation, and each full
 * collection then ran a finalizer per dead request: 25 ms at once in the render thread, at 150 pages a second (ADR 086).
 */
export class PageRequest extends Request {
  #signal;

  /**
   * @param {string} url
   * @param {{ method: string; headers: HeadersInit }} init
   * @param {AbortSignal} signal
   */
  constructor(url, init, signal) {
    super(url, init);
    this.#signal = signal;
  }

  get signal() {
    return this.#signal;
  }
}
