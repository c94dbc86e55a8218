import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An `AsyncLocalStorage` that is enabled only while a `run` is under way. On Node 20 an enabled store installs promise
 * hooks that run for every promise the process makes, whether or not it is inside a `run`. On a page rendered every
 * time they were a quarter of the server thread's allocations and some 8 % of its CPU (issue 31, ADR 084), while the
 * transactions that need a store are rare on such a page. The storage is enabled by the first `run` and disabled
 * when the last `run` under way has ended, which ends the promise hooks unless another store holds them.
 *
 * Work that outlives its `run` (a promise it started and did not wait for) may see the store or nothing, depending on
 * whether another `run` is under way: a store that must not be used after its `run` carries its own "ended" mark.
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  /** The runs that have not ended yet. */
  private running = 0;

  /** The store of the `run` this code runs in, if any. */
  getStore(): T | undefined {
    return this.storage.getStore();
  }

  /** `work` with `store` as its store, and every promise it makes. */
  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.running++;
    try {
      return await this.storage.run(store, work);
    } finally {
      if (--this.running === 0) this.storage.disable();
    }
  }
}
