import type { ReactNode } from 'react';
// React's Bun build of the same server renderer: it hands the document to its destination as strings, where the Node
// build encodes each of a page's thousands of pieces into bytes on its own (ADR 080).
import { renderToPipeableStream } from 'react-dom/server.bun';

export interface RenderDocumentOptions {
  nonce: string;
  /** Aborts a render that has not finished by then: what is not ready is left to the browser (with an `onError`). */
  timeoutMs: number;
  /** React's `onError`: an error in a part of the page (that part is left to the browser), or in the shell. */
  onError(error: unknown): void;
}

/**
 * `element` rendered whole, as one buffer, once everything in it is ready: nobody is sent a document in pieces
 * (ADR 020, ADR 068). Rejects when the shell fails.
 */
export function renderDocument(element: ReactNode, { nonce, timeoutMs, onError }: RenderDocumentOptions): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const parts: string[] = [];
    // What React writes to: the strings, joined and encoded once at the end. React only writes, ends, listens for
    // `drain`, `error` and `close` (never emitted here: nothing is sent until the end) and destroys on a fatal error.
    const destination = {
      write(chunk: string) {
        parts.push(chunk);
        return true;
      },
      end() {
        clearTimeout(timeout);
        resolve(Buffer.from(parts.join('')));
      },
      destroy(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      on() {
        return destination;
      },
    };
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      // The document goes as one buffer, so React's progressive outlining buys nothing: past 12.8 KB it sent every
      // later boundary of more than 500 bytes as a hidden copy swapped in by a script at the end, and the page first
      // painted their fallbacks (a signed-in person's order form, a 44 px placeholder, then the form).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        // Everything is ready: React writes the whole document and ends, before `pipe` returns.
        pipe(destination as unknown as NodeJS.WritableStream);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError,
    });
    // Cleared once the document is whole: a pending timer holds `abort`, and with it React's whole render (its
    // segments, its state). At 150 renders a second that kept some 900 renders alive: the heap left by a full
    // collection was 132 MB with them, 96 MB without (issue 31, ADR 075).
    const timeout = setTimeout(abort, timeoutMs);
  });
}
