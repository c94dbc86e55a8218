import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module's own tables, and the platform's (ADR 047).
  schema: ['./server/modules/*/schema.ts', './server/platform/schema.ts'],
  out: './server/db/migrations',
});
