import path from 'node:path';
import type { Config } from '@react-router/dev/config';
import { precompress } from './scripts/precompress.ts';

export default {
  appDirectory: 'web',
  buildDirectory: 'build',
  ssr: true,
  // After the last environment is written (the route manifest comes with the server build): compress the client's files.
  async buildEnd({ reactRouterConfig }) {
    const count = await precompress(path.join(reactRouterConfig.buildDirectory, 'client'));
    console.log(`precompressed ${count} client files (.br, .gz)`);
  },
} satisfies Config;
