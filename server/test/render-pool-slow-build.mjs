// The build of server/test/render-pool-build.mjs, slow to import in a render thread: a thread that takes longer to
// start than the pool's idle time (a loaded machine's import of a real build takes seconds).
import { isMainThread } from 'node:worker_threads';

export const START_MS = 2_500;
if (!isMainThread) await new Promise((resolve) => setTimeout(resolve, START_MS));
export * from './render-pool-build.mjs';
