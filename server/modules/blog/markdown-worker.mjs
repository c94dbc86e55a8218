// Renders one post's Markdown with marked in a worker thread (server/modules/blog/markdown.ts, ADR 040): however long
// marked takes over a pathological text, or however deep it recurses, the server's own thread goes on answering, and
// the worker is ended when its time is up. Plain JavaScript: a worker does not go through the TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { Marked } from 'marked';

const markdown = new Marked({ gfm: true, breaks: false, async: false });
parentPort.postMessage(markdown.parse(workerData, { async: false }));
