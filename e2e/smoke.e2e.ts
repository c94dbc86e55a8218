import { describe, it, expect } from 'vitest';
import { useE2E, visit, checkA11y } from './fixtures.ts';

describe('smoke', () => {
  const e2e = useE2E();
  it('loads home', async () => {
    const t0 = Date.now();
    const { page } = await e2e.open();
    const status = await visit(page, '/');
    console.log('status', status, Date.now() - t0, await page.title());
    const t1 = Date.now();
    const { AxeBuilder } = await import("@axe-core/playwright"); const r = await new AxeBuilder({ page }).analyze(); console.log(JSON.stringify(r.violations.map(v=>({id:v.id,impact:v.impact,tags:v.tags,nodes:v.nodes.map(n=>({html:n.html,summary:n.failureSummary}))})),null,1));
    console.log('axe', Date.now() - t1);
    expect(status).toBe(200);
  });
});
