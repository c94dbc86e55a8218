import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { multipartBody } from '../../test/multipart.ts';
import { createUser } from '../../db/factories.ts';
import { createService } from '../../db/catalog-factories.ts';
import { chatMembers, chats, messages } from '../chat/schema.ts';
import { files as filesTable } from './schema.ts';
import type { UserRow } from '../users/schema.ts';
import { pictureSources, VARIANT_FORMATS, VARIANT_WIDTHS } from '#contract/image-variants';

// ADR 022: every uploaded JPEG, PNG or WebP is also served at 320, 640 and 960 px as AVIF and WebP, made once.

let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let dataDir: string;
let owner: UserRow;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-variants-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  app = t.app;
  owner = await createUser(t.database.db);
});

afterAll(async () => {
  await app?.services.files.variants.settled();
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A real picture: a diagonal gradient, so that encoders have something to keep. */
async function picture(width: number, height: number, format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="50%" cy="50%" r="30%" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg))[format]().toBuffer();
}

async function upload(data: Buffer, user = owner, filename = 'picture.jpg') {
  const body = multipartBody([{ name: 'file', filename, type: 'application/octet-stream', data }]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/files/single',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${await app.services.tokens.sign(user)}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: { url: string; filePath: string } }>().result;
}

/** Makes the picture a service's: public (an upload nothing uses is its owner's alone, ADR 041). */
const shown = async (url: string) => createService(t.database.db, owner.id, { images: [url] });

/** Every variant url of a picture, from the same srcset the pages use. */
function variantUrls(url: string): string[] {
  const sources = pictureSources(url);
  expect(sources).not.toBeNull();
  return VARIANT_FORMATS.flatMap((f) => sources![f].split(', ').map((entry) => entry.split(' ')[0]!));
}

const onDisk = (url: string) => path.join(dataDir, 'uploads', url.slice('/uploads/'.length));

describe('picture variants', () => {
  it('are made after the upload: AVIF and WebP at each width, smaller than the original, metadata-free', async () => {
    const original = await sharp(await picture(1600, 1200)).withMetadata({ exif: { IFD0: { Copyright: 'секрет' } } }).jpeg({ quality: 95 }).toBuffer();
    const { url } = await upload(original);
    await shown(url);
    await app.services.files.variants.settled();
    const urls = variantUrls(url);
    expect(urls).toHaveLength(VARIANT_WIDTHS.length * VARIANT_FORMATS.length);
    for (const variant of urls) expect(existsSync(onDisk(variant)), variant).toBe(true);

    for (const variant of urls) {
      const res = await app.inject({ url: variant });
      expect(res.statusCode).toBe(200);
      const format = variant.endsWith('.avif') ? 'avif' : 'webp';
      expect(res.headers['content-type']).toBe(`image/${format}`);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
      expect(meta.width).toBe(Number(/\.w(\d+)\./.exec(variant)![1]));
      expect(meta.exif).toBeUndefined();
      expect(res.rawPayload.length).toBeLessThan(original.length);
    }
  });

  it('are never enlarged: a narrow picture keeps its width', async () => {
    const { url } = await upload(await picture(500, 375, 'png'), owner, 'small.png');
    await shown(url);
    const wide = variantUrls(url).find((u) => u.endsWith('.w960.webp'))!;
    const res = await app.inject({ url: wide });
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(500);
  });

  it('of a picture from before the variants are made on the first request', async () => {
    const { url } = await upload(await picture(800, 600, 'webp'), owner, 'old.webp');
    await shown(url);
    await app.services.files.variants.settled();
    const urls = variantUrls(url);
    for (const variant of urls) await rm(onDisk(variant));
    // Two visitors at once share one encoding and get the same bytes.
    const [a, b] = await Promise.all([app.inject({ url: urls[0]! }), app.inject({ url: urls[0]! })]);
    expect(a.statusCode).toBe(200);
    expect(b.rawPayload).toEqual(a.rawPayload);
    expect(existsSync(onDisk(urls[0]!))).toBe(true);
  });

  it('a picture libvips cannot read sends the browser to the original', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64)]);
    const { url } = await upload(broken, owner, 'broken.jpg');
    await shown(url);
    const res = await app.inject({ url: variantUrls(url)[0]! });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(url);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('only pictures have them; anything else is a 404', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const { filePath } = await upload(pdf, owner, 'doc.pdf');
    const base = filePath.slice(0, filePath.lastIndexOf('.'));
    for (const url of [
      `/uploads/${base}.w320.webp`,
      `/uploads/${owner.id}/${'a'.repeat(32)}.w320.webp`,
      `/uploads/${base}.w321.webp`,
      `/uploads/${base}.w320.gif`,
      `/uploads/${base}.w320.webp.webp`,
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
    expect(pictureSources(`/uploads/${filePath}`)).toBeNull();
    expect(pictureSources('https://example.com/a.jpg')).toBeNull();
  });

  it('of a picture sent in a chat are as private as the picture', async () => {
    const other = await createUser(t.database.db);
    const stranger = await createUser(t.database.db);
    const { url } = await upload(await picture(640, 480));
    const [chat] = await t.database.db.insert(chats).values({ kind: 'direct', directKey: `${owner.id}:${other.id}` }).returning();
    await t.database.db.insert(chatMembers).values([
      { chatId: chat!.id, userId: owner.id },
      { chatId: chat!.id, userId: other.id },
    ]);
    await t.database.db.insert(messages).values({ chatId: chat!.id, senderId: owner.id, files: [url] });
    const variant = variantUrls(url)[1]!;
    const get = async (user: UserRow | null) =>
      app.inject({ url: variant, headers: user ? { cookie: `authToken=${await app.services.tokens.sign(user)}` } : {} });
    const seen = await get(other);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['cache-control']).toBe('private, no-store');
    expect((await get(stranger)).statusCode).toBe(404);
    expect((await get(null)).statusCode).toBe(404);
  });

  it('go with their picture: deleted by its owner or swept as unused', async () => {
    const deleted = await upload(await picture(700, 500));
    const unused = await upload(await picture(700, 500));
    await app.services.files.variants.settled();
    const res = await app.inject({
      method: 'DELETE',
      url: '/api/files/single',
      payload: { filePath: deleted.url },
      headers: { authorization: `Bearer ${await app.services.tokens.sign(owner)}` },
    });
    expect(res.statusCode).toBe(200);
    for (const variant of variantUrls(deleted.url)) expect(existsSync(onDisk(variant))).toBe(false);

    await t.database.db
      .update(filesTable)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(sql`${filesTable.path} = ${unused.filePath}`);
    for (let i = 0; i < 20; i++) await app.services.files.sweepUnused(new Date(Date.now() - 24 * 60 * 60_000));
    expect(existsSync(onDisk(unused.url))).toBe(false);
    for (const variant of variantUrls(unused.url)) expect(existsSync(onDisk(variant))).toBe(false);
  });
});
