import { it, expect } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';

it('real http', async () => {
  const t = await createTestApp({ DATA_DIR: '/tmp/fhttp' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  const user = await createUser(t.database.db);
  const token = await t.app.services.tokens.sign(user);
  const send = async (size: number, tok?: string) => {
    const data = new Uint8Array(size); data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const fd = new FormData(); fd.append('file', new Blob([data], { type: 'image/png' }), 'Фото.png');
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${addr.port}/api/files/single`, { method: 'POST', body: fd, headers: tok ? { authorization: `Bearer ${tok}` } : {} }).catch((e) => ({ status: -1, text: async () => String(e.cause ?? e) }));
    return [res.status, await res.text(), Date.now() - started];
  };
  console.log(await send(1024 * 1024));
  console.log(await send(25 * 1024 * 1024, token));
  console.log(await send(100, token));
  await t.close();
});
