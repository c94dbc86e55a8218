import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { signedInPerson, testEnv, type Person } from '../../test/app.ts';
import { multipartBody } from '../../test/multipart.ts';
import { startS3Server, type TestS3 } from '../../test/s3-server.ts';
import { freePort } from '../../test/nginx.ts';
import type { S3Storage } from '../../lib/s3-storage.ts';
import { chatMembers, chats, messages } from '../chat/schema.ts';
import { files as filesTable } from './schema.ts';

// ADR 060: two instances with data folders of their own and one S3 bucket (s3rver, a real S3-compatible server)
// serve each other's uploads, refuse a private one to a stranger alike, and the cleanup removes an unused object once.

const DAY = 86_400_000;
let s3: TestS3;
let bucket: S3Storage;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dirs: string[] = [];
let a: FastifyInstance;
let b: FastifyInstance;

async function instance(): Promise<FastifyInstance> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-s3-instance-'));
  dirs.push(dataDir);
  const app = await buildApp({ env: testEnv({ DATA_DIR: dataDir, ...s3.env }), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  return app;
}

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = s3.storage();
  database = await createTestDatabase();
  a = await instance();
  b = await instance();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
  await s3?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const person = () => signedInPerson(a, database.db);

async function upload(app: FastifyInstance, owner: Person, data: Buffer, filename: string, type: string) {
  const body = multipartBody([{ name: 'file', filename, type, data }]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/files/single',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${owner.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as { url: string; filePath: string };
}

/** The file as a browser asks for it: the cookie of the one who asks, or none. */
const read = (app: FastifyInstance, url: string, who: Person | null) =>
  app.inject({ url, headers: who ? { cookie: `authToken=${who.token}` } : {} });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('files in one S3 bucket behind two instances', () => {
  it('a picture uploaded through one instance is served, with its variants, by the other; no disk holds it', async () => {
    const owner = await person();
    const jpeg = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#7c3aed' } }).jpeg().toBuffer();
    const file = await upload(a, owner, jpeg, 'обложка.jpg', 'image/jpeg');

    const served = await read(b, file.url, owner);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['content-length']).toBe(String(jpeg.length));
    expect(served.rawPayload.equals(jpeg)).toBe(true);
    expect(await bucket.stat(file.filePath)).toEqual({ size: jpeg.length });
    for (const dir of dirs) expect(existsSync(path.join(dir, 'uploads', file.filePath))).toBe(false);

    // The variants the first instance made are in the bucket; one that is missing there is made by the other
    // instance from the bucket's original and stored back.
    await a.services.files.variants.settled();
    const variantKey = file.filePath.replace(/\.jpg$/, '.w320.webp');
    const madeByA = await bucket.stat(variantKey);
    expect(madeByA).not.toBeNull();
    await bucket.remove(variantKey);
    const variant = await read(b, `/uploads/${variantKey}`, owner);
    expect(variant.statusCode).toBe(200);
    expect(variant.headers['content-type']).toBe('image/webp');
    expect((await sharp(variant.rawPayload).metadata()).width).toBe(320);
    expect(await bucket.stat(variantKey)).toEqual({ size: variant.rawPayload.length });
    expect((await read(a, `/uploads/${variantKey}`, owner)).rawPayload.equals(variant.rawPayload)).toBe(true);
    for (const dir of dirs) expect(existsSync(path.join(dir, 'uploads', variantKey))).toBe(false);
  });

  it('a chat attachment: its members get it on both instances, a stranger and a guest get 404 on both', async () => {
    const [owner, member, stranger] = [await person(), await person(), await person()];
    const file = await upload(b, owner, PDF, 'договор.pdf', 'application/pdf');
    const [chat] = await database.db
      .insert(chats)
      .values({ kind: 'direct', directKey: `${owner.user.id}:${member.user.id}` })
      .returning();
    await database.db.insert(chatMembers).values([
      { chatId: chat!.id, userId: owner.user.id },
      { chatId: chat!.id, userId: member.user.id },
    ]);
    await database.db.insert(messages).values({ chatId: chat!.id, senderId: owner.user.id, files: [file.url] });

    for (const app of [a, b]) {
      const got = await read(app, file.url, member);
      expect(got.statusCode).toBe(200);
      expect(got.headers['cache-control']).toBe('private, no-store');
      expect(got.rawPayload.equals(PDF)).toBe(true);
      expect((await read(app, file.url, stranger)).statusCode).toBe(404);
      expect((await read(app, file.url, null)).statusCode).toBe(404);
    }
  });

  it('the cleanup removes an unused upload from the bucket once; the next run, on either instance, finds nothing', async () => {
    const owner = await person();
    const file = await upload(a, owner, PDF, 'черновик.pdf', 'application/pdf');
    await database.db
      .update(filesTable)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(eq(filesTable.path, file.filePath));
    expect(await bucket.stat(file.filePath)).not.toBeNull();

    const before = new Date(Date.now() - DAY);
    expect(await b.services.files.sweepUnused(before)).toBe(1);
    expect(await bucket.stat(file.filePath)).toBeNull();
    expect((await read(a, file.url, owner)).statusCode).toBe(404);
    expect(await a.services.files.sweepUnused(before)).toBe(0);
    expect(await b.services.files.sweepUnused(before)).toBe(0);
  });

  it("a removed file's object and variants leave the bucket", async () => {
    const owner = await person();
    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#f59e0b' } }).png().toBuffer();
    const file = await upload(a, owner, png, 'p.png', 'image/png');
    await a.services.files.variants.settled();
    const variantKey = file.filePath.replace(/\.png$/, '.w320.avif');
    expect(await bucket.stat(variantKey)).not.toBeNull();
    const res = await b.inject({
      method: 'DELETE',
      url: '/api/files/single',
      payload: { filePath: file.filePath },
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await bucket.stat(file.filePath)).toBeNull();
    expect(await bucket.stat(variantKey)).toBeNull();
  });
});

describe('a bucket that cannot be reached (issue 29)', () => {
  it('answers an upload with a Russian 503, so that the client tries again later', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-s3-down-'));
    dirs.push(dataDir);
    // Nothing listens there: the storage service is down.
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const app = await buildApp({ env: testEnv({ DATA_DIR: dataDir, ...s3.env, S3_ENDPOINT: endpoint }), database, logger: pino({ level: 'silent' }), web: false });
    await app.ready();
    try {
      const owner = await signedInPerson(app, database.db);
      const body = multipartBody([{ name: 'file', filename: 'договор.pdf', type: 'application/pdf', data: PDF }]);
      const res = await app.inject({ method: 'POST', url: '/api/files/single', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${owner.token}` } });
      expect([res.statusCode, res.json()]).toEqual([503, { status: 503, message: 'Сервис временно недоступен, повторите попытку' }]);
    } finally {
      await app.close();
    }
  });
});
