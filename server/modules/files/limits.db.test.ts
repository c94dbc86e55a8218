import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SETTING_KEYS } from '#contract/settings';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { multipartBody, PNG } from '../../test/multipart.ts';
import { createUser } from '../../db/factories.ts';
import { createService } from '../../db/catalog-factories.ts';
import { files as filesTable } from './schema.ts';
import { chatMembers, chats, messages } from '../chat/schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { settings as settingsTable } from '../../platform/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { MAX_FILE_SIZE } from './service.ts';

// Issue 9: L2 (a cut-off multipart body), L6 (refused uploads answer readably), M6 (quota, upload rate, the
// operator settings that hold them, the cleanup of unused uploads) and private chat attachments.

const pdf = (size: number) => {
  const body = Buffer.alloc(size, 0x20);
  Buffer.from('%PDF-1.4\n').copy(body);
  return body;
};

const multipart = (data: Buffer, { close = true } = {}) => {
  const { payload, headers } = multipartBody([{ name: 'file', filename: 'file.bin', type: 'application/octet-stream', data }], { close });
  return { payload, contentType: headers['content-type'] };
};

let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let dataDir: string;
let member: UserRow;
let admin: UserRow;
const token = (user: UserRow) => app.services.tokens.sign(user);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-limits-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  app = t.app;
  admin = await createUser(t.database.db, { roles: ['customer', 'admin'] });
});

beforeEach(async () => {
  // Every test starts from the default settings, a fresh person and fresh counters.
  await t.database.db.delete(settingsTable).where(sql`${settingsTable.key} like 'uploads.%'`);
  app.services.settings.forget();
  member = await createUser(t.database.db);
});

afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(user: UserRow | null, data: Buffer, opts: { close?: boolean; ip?: string } = {}) {
  const body = multipart(data, opts);
  return app.inject({
    method: 'POST',
    url: '/api/files/single',
    payload: body.payload,
    remoteAddress: opts.ip,
    headers: { 'content-type': body.contentType, ...(user ? { authorization: `Bearer ${await token(user)}` } : {}) },
  });
}

const setSettings = async (patch: Record<string, unknown>, as: UserRow = admin) =>
  app.inject({ method: 'PUT', url: '/api/admin/settings', payload: patch, headers: { authorization: `Bearer ${await token(as)}` } });

const filesOf = (user: UserRow) => t.database.db.select().from(filesTable).where(eq(filesTable.ownerId, user.id));

describe('operator settings', () => {
  it('an admin reads the defaults and changes one; it takes effect at once', async () => {
    const read = await app.inject({ method: 'GET', url: '/api/admin/settings', headers: { authorization: `Bearer ${await token(admin)}` } });
    expect(read.json()).toMatchObject({ status: 200, result: { 'uploads.quotaBytes': 1024 ** 3, 'uploads.perHour': 60 } });
    // Every operator setting is there with its default (contract/settings.ts).
    expect(Object.keys(read.json().result).sort()).toEqual([...SETTING_KEYS].sort());
    const changed = await setSettings({ 'uploads.perHour': 5 });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().result['uploads.perHour']).toBe(5);
    expect(await app.services.settings.get('uploads.perHour')).toBe(5);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update')).orderBy(sql`created_at desc`).limit(1);
    expect(entry).toMatchObject({ actorId: admin.id, targetType: 'settings', details: { 'uploads.perHour': 5 } });
  });

  it('a change whose audit row cannot be written is not stored either', async () => {
    // An admin who is gone by the time the audit row is written: its foreign key fails, and so does the change.
    const ghost = { ...admin, id: '00000000-0000-4000-8000-000000000000' };
    await expect(app.services.settings.update(ghost, { 'uploads.perHour': 7 })).rejects.toThrow();
    app.services.settings.forget();
    expect(await app.services.settings.get('uploads.perHour')).toBe(60);
  });

  it('refuses members, values out of range and unknown keys', async () => {
    expect((await setSettings({ 'uploads.perHour': 5 }, member)).statusCode).toBe(403);
    for (const bad of [{ 'uploads.perHour': 0 }, { 'uploads.perHour': 2 ** 31 }, { 'uploads.quotaBytes': -1 }, { 'uploads.perHour': '5' }, { 'ads.price': 1 }]) {
      const res = await setSettings(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/[а-я]/i);
    }
    expect(await app.services.settings.get('uploads.perHour')).toBe(60);
  });

  it('a stored value out of range falls back to its default', async () => {
    await t.database.db.insert(settingsTable).values({ key: 'uploads.perHour', value: -5 }).onConflictDoUpdate({ target: settingsTable.key, set: { value: -5 } });
    app.services.settings.forget();
    expect(await app.services.settings.get('uploads.perHour')).toBe(60);
  });
});

describe('upload quota and rate (M6)', () => {
  it('a file over the space left is refused with 413, saying how much is left, and nothing is kept', async () => {
    await setSettings({ 'uploads.quotaBytes': 1024 * 1024 });
    expect((await upload(member, pdf(600 * 1024))).statusCode).toBe(200);
    const res = await upload(member, pdf(600 * 1024));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Не хватает места для файлов: свободно 0,4 МБ. Удалите ненужные файлы');
    expect(await filesOf(member)).toHaveLength(1);
    expect((await upload(member, pdf(300 * 1024))).statusCode).toBe(200);
    // Full: refused before the body is read.
    await setSettings({ 'uploads.quotaBytes': 1024 * 1024 });
    await t.database.db.update(filesTable).set({ size: 1024 * 1024 }).where(eq(filesTable.ownerId, member.id));
    expect((await upload(member, PNG)).statusCode).toBe(413);
  });

  it('the upload after the hourly rate gets 429, per person; another person is not affected', async () => {
    await setSettings({ 'uploads.perHour': 3 });
    for (let i = 0; i < 3; i++) expect((await upload(member, PNG, { ip: '203.0.113.7' })).statusCode).toBe(200);
    const res = await upload(member, PNG, { ip: '203.0.113.8' });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('Слишком много загрузок, попробуйте через час');
    expect((await upload(await createUser(t.database.db), PNG, { ip: '203.0.113.7' })).statusCode).toBe(200);
  });

  it('one address is limited too, at ten times a person’s rate', async () => {
    await setSettings({ 'uploads.perHour': 1 });
    const codes = [];
    for (let i = 0; i < 11; i++) codes.push((await upload(await createUser(t.database.db), PNG, { ip: '198.51.100.9' })).statusCode);
    expect(codes).toEqual([...Array(10).fill(200), 429]);
  });
});

describe('broken and refused uploads (L2, L6)', () => {
  it('a multipart body cut off before its closing boundary is a 400, not a 500', async () => {
    const res = await upload(member, pdf(64 * 1024), { close: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Файл передан не полностью, загрузите его ещё раз');
    expect(await filesOf(member)).toHaveLength(0);
  });

  describe('over a real connection', () => {
    let url: URL;
    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      url = new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/files/single`);
    });

    /** Streams the body in chunks, as a browser does, and reads whatever answer comes. */
    function send(body: Buffer, contentType: string, auth?: string): Promise<{ status: number; json: { message: string } }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(url, {
          method: 'POST',
          headers: { 'content-type': contentType, 'content-length': body.length, ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
        });
        req.on('error', reject);
        let at = 0;
        const write = () => {
          while (at < body.length) {
            const chunk = body.subarray(at, at + 256 * 1024);
            at += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', write);
          }
          req.end();
        };
        write();
      });
    }

    it('a guest’s 2 MB upload reads a 401', async () => {
      const body = multipart(pdf(2 * 1024 * 1024));
      const res = await send(body.payload, body.contentType);
      expect(res.status).toBe(401);
      expect(res.json.message).toMatch(/[а-я]/i);
    });

    it('a 21 MB upload reads a 413', async () => {
      const body = multipart(pdf(MAX_FILE_SIZE + 1024 * 1024));
      const res = await send(body.payload, body.contentType, await token(member));
      expect(res.status).toBe(413);
      expect(res.json.message).toBe('Файл больше 20 МБ');
      expect(await filesOf(member)).toHaveLength(0);
    });
  });
});

describe('files sent in a chat are private', () => {
  it('members (and the owner, and admins) get it, never cached; a stranger and a guest get 404', async () => {
    const other = await createUser(t.database.db);
    const stranger = await createUser(t.database.db);
    const up = await upload(member, PNG);
    const { url } = up.json().result as { url: string };
    const [chat] = await t.database.db.insert(chats).values({ kind: 'direct', directKey: `${member.id}:${other.id}` }).returning();
    await t.database.db.insert(chatMembers).values([
      { chatId: chat!.id, userId: member.id },
      { chatId: chat!.id, userId: other.id },
    ]);
    const get = async (user: UserRow | null) =>
      app.inject({ url, headers: user ? { cookie: `authToken=${await token(user)}` } : {} });
    // Its owner's (and admins') alone until a use names it (ADR 041): never public, never cached.
    expect((await get(null)).statusCode).toBe(404);
    expect((await get(other)).statusCode).toBe(404);
    expect((await get(member)).headers['cache-control']).toBe('private, no-store');
    await t.database.db.insert(messages).values({ chatId: chat!.id, senderId: member.id, files: [url] });

    for (const viewer of [member, other, admin]) {
      const res = await get(viewer);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    expect((await get(stranger)).statusCode).toBe(404);
    expect((await get(null)).statusCode).toBe(404);

    // filePolicy: only the owner deletes it; a member who sees it is refused (403), a stranger learns nothing (404).
    const del = async (user: UserRow) =>
      app.inject({ method: 'DELETE', url: '/api/files/single', payload: { filePath: url }, headers: { authorization: `Bearer ${await token(user)}` } });
    expect((await del(other)).statusCode).toBe(403);
    expect((await del(stranger)).statusCode).toBe(404);
    expect((await get(member)).statusCode).toBe(200);
  });

  it('a service image stays public and cacheable', async () => {
    const { url } = (await upload(member, PNG)).json().result as { url: string };
    await createService(t.database.db, member.id, { images: [url] });
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('unused uploads are deleted after a day (M6)', () => {
  it('an old unused file goes with its bytes; a used one and a fresh one stay', async () => {
    const files = app.services.files;
    const uploadUrl = async () => (await upload(member, PNG)).json().result as { url: string; filePath: string };
    const unused = await uploadUrl();
    const avatar = await uploadUrl();
    const image = await uploadUrl();
    const fresh = await uploadUrl();
    await t.database.db.update(users).set({ avatar: avatar.url }).where(eq(users.id, member.id));
    await createService(t.database.db, member.id, { images: [image.filePath] });
    const dayAgo = new Date(Date.now() - 25 * 60 * 60_000);
    await t.database.db
      .update(filesTable)
      .set({ createdAt: dayAgo })
      .where(sql`${filesTable.path} in (${unused.filePath}, ${avatar.filePath}, ${image.filePath})`);

    // Small batches: the sweep goes on where it stopped until it has seen every old file.
    let deleted = 0;
    for (let i = 0; i < 50; i++) deleted += await files.sweepUnused(new Date(Date.now() - 24 * 60 * 60_000), 2);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = (await filesOf(member)).map((f) => f.path);
    expect(left).not.toContain(unused.filePath);
    expect(left).toEqual(expect.arrayContaining([avatar.filePath, image.filePath, fresh.filePath]));
    expect(existsSync(path.join(dataDir, 'uploads', unused.filePath))).toBe(false);
    expect(existsSync(path.join(dataDir, 'uploads', avatar.filePath))).toBe(true);
  });
});

describe('a request with two file parts', () => {
  it('stores nothing when the body is refused, whole or cut off after the first file', async () => {
    const before = (await filesOf(member)).length;
    for (const close of [true, false]) {
      const { payload, headers } = multipartBody(
        [
          { name: 'file', filename: 'a.pdf', type: 'application/pdf', data: pdf(2048) },
          { name: 'file', filename: 'b.png', type: 'image/png', data: PNG },
        ],
        { close },
      );
      const res = await t.app.inject({ method: 'POST', url: '/api/files/single', payload, headers: { ...headers, authorization: `Bearer ${await token(member)}` } });
      expect(res.statusCode, res.body).toBeLessThan(500);
      const stored = (await filesOf(member)).length - before;
      // Either the one file is answered and kept, or the request is refused and nothing stays.
      expect(res.statusCode === 200 ? stored <= 1 : stored === 0, `${res.statusCode} with ${stored} stored (close: ${close})`).toBe(true);
    }
  });
});

describe('an upload that breaks off while its file is being written', () => {
  it('leaves no partial file behind, however the write and the refusal interleave', async () => {
    const tmpDir = path.join(dataDir, 'uploads', '.tmp');
    // Earlier tests' pictures get their variants made in the same directory, in the background: let them finish.
    await app.services.files.variants.settled();
    const outcomes = new Set<number | string>();
    for (let i = 0; i < 400; i++) {
      // A body that breaks off mid-file, right away or a moment later: the refusal races the opening of the file.
      const file = new Readable({ read() {} });
      // busboy's stream has its reader attached already; this one is read only once upload() gets to it.
      file.on('error', () => {});
      file.push(pdf(4096));
      if (i % 2) file.destroy(new Error('Unexpected end of form'));
      else setImmediate(() => file.destroy(new Error('Unexpected end of form')));
      const refused = await app.services.files.upload(member.id, { filename: 'cut.pdf', file }).then(
        () => 200,
        (err: { statusCode?: number; message?: string }) => err.statusCode ?? `${err.message}`,
      );
      outcomes.add(refused);
    }
    expect([...outcomes]).toEqual([400]);
    expect(existsSync(tmpDir) ? await readdir(tmpDir) : []).toEqual([]);
    expect(await filesOf(member)).toEqual([]);
  });
});
