import path from 'node:path';
import type { Config } from '@react-router/dev/config';
import { precompress } from './scripts/precompress.ts';

export default {
  appDirectory: 'web',
  buildDirectory: 'build',
  ssr: true,
  future: {
    // React Router hands a loader the request it was given, not a copy per loader (each a signal following the
    // page's; ADR 086). A loader reads its address from `url`, which has React Router's own parts left out.
    v8_passThroughRequests: true,
  },
  // After the last environment is written (the route manifest comes with the server build): compress the client's files.
  async buildEnd({ reactRouterConfig }) {
    const count = await precompress(path.join(reactRouterConfig.buildDirectory, 'client'));
    console.log(`precompressed ${count} client files (.br, .gz)`);
  },
} satisfies Config;
