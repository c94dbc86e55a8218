import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { multipartBody } from '../../test/multipart.ts';
import { createUser } from '../../db/factories.ts';
import { createProject } from '../../db/catalog-factories.ts';
import { files as filesTable } from './schema.ts';
import type { UserRow } from '../users/schema.ts';
import { MAX_FILE_SIZE, ownedFile, sanitizeFileName } from '../../platform/files.ts';

// ---------------------------------------------------------------- samples with real magic bytes

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
]);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = (() => {
  const vp8 = Buffer.from('VP8L\x0a\x00\x00\x00\x2f\x00\x00\x00\x00\x00\x00\x00\x00\x00', 'latin1');
  const body = Buffer.concat([Buffer.from('WEBP'), vp8]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
})();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SVG = Buffer.from(
  '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script><rect width="1" height="1"/></svg>\n',
);
const RTF = Buffer.from('{\\rtf1\\ansi Привет}');
const CFB = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
const RAR = Buffer.concat([Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'), Buffer.alloc(32)]);
const SEVEN_Z = Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), Buffer.alloc(24)]);
const GZ = gzipSync(Buffer.from('просто текст, сжатый gzip'));

/** A stored (uncompressed) zip of the given entries, in order. */
function zip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBuf = Buffer.from(name);
    const data = Buffer.from(content);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

const ZIP = zip([['hello.txt', 'Привет']]);
const contentTypes = (main: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/x.xml" ContentType="${main}.main+xml"/></Types>`;
const DOCX = zip([
  ['[Content_Types].xml', contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document')],
  ['word/document.xml', '<w:document/>'],
]);
const XLSX = zip([
  ['[Content_Types].xml', contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')],
  ['xl/workbook.xml', '<workbook/>'],
]);
const PPTX = zip([
  ['[Content_Types].xml', contentTypes('application/vnd.openxmlformats-officedocument.presentationml.presentation')],
  ['ppt/presentation.xml', '<presentation/>'],
]);
const odf = (mime: string) => zip([['mimetype', mime], ['content.xml', '<office:document-content/>']]);

function tar(name: string, content: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  body.write(content);
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}
const TAR = tar('hello.txt', 'Привет');

const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(126), Buffer.from('PE\0\0'), Buffer.alloc(256)]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

// ---------------------------------------------------------------- app

let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let database: Awaited<ReturnType<typeof createTestApp>>['database'];
let dataDir: string;
let uploadsDir: string;
let tmpDir: string;
let owner: UserRow;
let other: UserRow;
let ownerToken: string;
let otherToken: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-files-'));
  uploadsDir = path.join(dataDir, 'uploads');
  tmpDir = path.join(uploadsDir, '.tmp');
  t = await createTestApp({ DATA_DIR: dataDir });
  ({ app, database } = t);
  owner = await createUser(database.db);
  other = await createUser(database.db);
  ownerToken = await app.services.tokens.sign(owner);
  otherToken = await app.services.tokens.sign(other);
});

afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** A file nothing uses yet is its owner's alone (ADR 041): they read it as their browser does, by the cookie. */
const asOwner = () => ({ headers: { cookie: `authToken=${ownerToken}` } });

interface Uploaded {
  _id: string;
  filePath: string;
  url: string;
  name: string;
  mime: string;
  size: number;
}

function upload(data: Buffer | string, filename = 'file.bin', opts: { token?: string | null; type?: string; field?: string } = {}) {
  const token = opts.token === undefined ? ownerToken : opts.token;
  const body = multipartBody([{ name: opts.field ?? 'file', filename, type: opts.type ?? 'application/octet-stream', data }]);
  return app.inject({
    method: 'POST',
    url: '/api/files/single',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? auth(token) : {}) },
  });
}

async function uploadOk(data: Buffer | string, filename = 'file.bin', opts: { token?: string; type?: string } = {}): Promise<Uploaded> {
  const res = await upload(data, filename, opts);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Uploaded }>().result;
}

const del = (filePath: unknown, token: string | null = ownerToken) =>
  app.inject({ method: 'DELETE', url: '/api/files/single', payload: { filePath }, headers: token ? auth(token) : {} });

/** Every file on disk under a directory (recursively), for "nothing was left behind" checks. */
async function listFiles(dir: string): Promise<string[]> {
  // Pictures' variants are made in the background after an upload: wait for them, so they are in every snapshot.
  await app.services.files.variants.settled();
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function expectNothingLeftBehind(before: string[]) {
  expect(await listFiles(tmpDir)).toEqual([]);
  expect(await listFiles(uploadsDir)).toEqual(before);
}

const STORED = /^[0-9a-f-]{36}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

// ---------------------------------------------------------------- tests

describe('POST /api/files/single', () => {
  it('needs a token (401) and stores nothing for a guest', async () => {
    const before = await listFiles(uploadsDir);
    const res = await upload(PNG, 'a.png', { token: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: 'Требуется вход в аккаунт' });
    await expectNothingLeftBehind(before);
  });

  it('refuses a revoked or foreign token', async () => {
    expect((await upload(PNG, 'a.png', { token: `${ownerToken}x` })).statusCode).toBe(401);
  });

  it.each([
    ['PNG', PNG, 'photo.png', 'image/png', 'png'],
    ['JPEG', JPEG, 'photo.jpg', 'image/jpeg', 'jpg'],
    ['GIF', GIF, 'anim.gif', 'image/gif', 'gif'],
    ['WebP', WEBP, 'pic.webp', 'image/webp', 'webp'],
    ['SVG', SVG, 'logo.svg', 'image/svg+xml', 'svg'],
    ['PDF', PDF, 'offer.pdf', 'application/pdf', 'pdf'],
    ['DOCX', DOCX, 'brief.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['XLSX', XLSX, 'table.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
    ['PPTX', PPTX, 'deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
    ['ODT', odf('application/vnd.oasis.opendocument.text'), 'text.odt', 'application/vnd.oasis.opendocument.text', 'odt'],
    ['ODS', odf('application/vnd.oasis.opendocument.spreadsheet'), 'calc.ods', 'application/vnd.oasis.opendocument.spreadsheet', 'ods'],
    ['ODP', odf('application/vnd.oasis.opendocument.presentation'), 'show.odp', 'application/vnd.oasis.opendocument.presentation', 'odp'],
    ['RTF', RTF, 'letter.rtf', 'application/rtf', 'rtf'],
    ['legacy Office (CFB)', CFB, 'old.doc', 'application/x-cfb', 'cfb'],
    ['ZIP', ZIP, 'archive.zip', 'application/zip', 'zip'],
    ['RAR', RAR, 'archive.rar', 'application/vnd.rar', 'rar'],
    ['7z', SEVEN_Z, 'archive.7z', 'application/x-7z-compressed', '7z'],
    ['gzip', GZ, 'notes.txt.gz', 'application/gzip', 'gz'],
    ['tar', TAR, 'bundle.tar', 'application/x-tar', 'tar'],
    ['plain text (UTF-8)', Buffer.from('Техническое задание:\r\n\t1. Логотип\f\n2. ' + 'я'.repeat(40_000)), 'tz.txt', 'text/plain', 'txt'],
  ])('accepts %s by its content and stores it under a server-chosen name', async (_label, data, filename, mime, ext) => {
    const res = await upload(data, filename);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ status: number; result: Uploaded }>();
    expect(body.status).toBe(200);
    const r = body.result;
    expect(r).toEqual({
      _id: expect.any(String),
      filePath: expect.stringMatching(STORED),
      url: `/uploads/${r.filePath}`,
      name: filename,
      mime,
      size: data.length,
    });
    expect(r.filePath.startsWith(`${owner.id}/`)).toBe(true);
    expect(r.filePath.endsWith(`.${ext}`)).toBe(true);
    expect(await readFile(path.join(uploadsDir, r.filePath))).toEqual(data);
    const [row] = await database.db.select().from(filesTable).where(eq(filesTable.id, r._id));
    expect(row).toMatchObject({ ownerId: owner.id, path: r.filePath, originalName: filename, mime, size: data.length });
    expect(await listFiles(tmpDir)).toEqual([]);
  });

  it('ignores what the client claims: the type comes from the bytes', async () => {
    const r = await uploadOk(PNG, 'contract.pdf', { type: 'application/pdf' });
    expect(r.mime).toBe('image/png');
    expect(r.filePath.endsWith('.png')).toBe(true);
    expect(r.name).toBe('contract.pdf');
  });

  it.each([
    ['an executable renamed photo.png', EXE, 'photo.png', 'image/png'],
    ['an HTML page', HTML, 'page.html', 'text/html'],
    ['an HTML page named as an image', HTML, 'avatar.svg', 'image/svg+xml'],
    ['an HTML page named as text', HTML, 'notes.txt', 'text/plain'],
    ['text with control characters', Buffer.from('строка\u0000\u0001бинарная'), 'notes.txt', 'text/plain'],
    ['text that is not UTF-8', Buffer.from([0x70, 0xf0, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), 'cp1251.txt', 'text/plain'],
    ['an XML file that is not SVG', Buffer.from('<?xml version="1.0"?><html><script>alert(1)</script></html>'), 'x.svg', 'image/svg+xml'],
    ['a JAR (a zip that is a program)', zip([['META-INF/MANIFEST.MF', 'Manifest-Version: 1.0\n']]), 'lib.zip', 'application/zip'],
  ])('refuses %s with 400 and leaves nothing behind', async (_label, data, filename, type) => {
    const before = await listFiles(uploadsDir);
    const res = await upload(data, filename, { type });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Недопустимый тип файла' });
    await expectNothingLeftBehind(before);
  });

  it('refuses an empty file', async () => {
    const before = await listFiles(uploadsDir);
    const res = await upload(Buffer.alloc(0), 'empty.png', { type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Файл пустой' });
    await expectNothingLeftBehind(before);
  });

  it('refuses a request without the "file" field', async () => {
    const onlyText = multipartBody([{ name: 'title', data: 'без файла' }]);
    const res1 = await app.inject({ method: 'POST', url: '/api/files/single', payload: onlyText.payload, headers: { ...onlyText.headers, ...auth(ownerToken) } });
    expect(res1.statusCode).toBe(400);
    expect(res1.json()).toEqual({ status: 400, message: 'Файл не передан' });

    const res2 = await upload(PNG, 'a.png', { field: 'avatar' });
    expect(res2.statusCode).toBe(400);

    const res3 = await app.inject({ method: 'POST', url: '/api/files/single', payload: { file: 'x' }, headers: auth(ownerToken) });
    expect(res3.statusCode).toBe(400);
    expect(res3.json()).toEqual({ status: 400, message: 'Файл не передан' });

    const res4 = await app.inject({
      method: 'POST',
      url: '/api/files/single',
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data', ...auth(ownerToken) },
    });
    expect(res4.statusCode).toBe(400);
  });

  it('refuses a file over 20 MB with 413 and leaves nothing behind', async () => {
    const before = await listFiles(uploadsDir);
    const big = Buffer.alloc(MAX_FILE_SIZE + 1);
    PNG.copy(big);
    const res = await upload(big, 'huge.png', { type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 413, message: 'Файл больше 20 МБ' });
    // Refused mid-upload: the rest of the body is read out, so the client reads this answer (issue 9, L6).
    await expectNothingLeftBehind(before);
  });

  it('accepts a file of exactly 20 MB', async () => {
    const max = Buffer.alloc(MAX_FILE_SIZE);
    PDF.copy(max);
    const r = await uploadOk(max, 'scan.pdf');
    expect(r.size).toBe(MAX_FILE_SIZE);
  });

  it('keeps a Russian file name and makes a hostile one harmless', async () => {
    expect((await uploadOk(PNG, 'Фото паспорта.png')).name).toBe('Фото паспорта.png');
    const r = await uploadOk(PNG, '..\\..\\etc\\evil\u202egnp.exe');
    expect(r.name).toBe('evilgnp.exe');
    expect(r.filePath).toMatch(STORED);
    expect((await uploadOk(PNG, `${'я'.repeat(300)}.png`)).name).toHaveLength(200);
  });
});

describe('GET /uploads/…', () => {
  it('serves an SVG without a token, with a sandboxing CSP, nosniff and inline disposition', async () => {
    const r = await uploadOk(SVG, 'logo.svg');
    // A project's attachment: public.
    await createProject(database.db, owner.id, { attachments: [r.url] });
    const res = await app.inject({ url: r.url });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(SVG);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(SVG.length);
  });

  it('serves a PDF as a download (browsers will not run their viewer sandboxed), sandboxed anyway', async () => {
    const r = await uploadOk(PDF, 'Договор.pdf');
    const res = await app.inject({ url: r.url, ...asOwner() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''/);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves an archive as a download under its original (encoded) name', async () => {
    const r = await uploadOk(ZIP, "Проект (итог)'s.zip");
    const res = await app.inject({ url: r.url, ...asOwner() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82%20%28%D0%B8%D1%82%D0%BE%D0%B3%29%27s.zip",
    );
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload).toEqual(ZIP);
  });

  it('answers 404 JSON for an unknown file of the right shape', async () => {
    const res = await app.inject({ url: `/uploads/${owner.id}/${'0'.repeat(32)}.png` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Не найдено' });
  });

  it('answers 404 to traversal attempts and odd names', async () => {
    const r = await uploadOk(PNG, 'a.png');
    const [ownerDir, name] = r.filePath.split('/');
    const attempts = [
      '/uploads/..%2F..%2Fpackage.json',
      '/uploads/..%2f..%2fpackage.json',
      `/uploads/${ownerDir}/..%2F..%2F..%2Fpackage.json`,
      '/uploads/%2Fetc%2Fpasswd',
      '/uploads//etc/passwd',
      '/uploads/%2e%2e/%2e%2e/package.json',
      `/uploads/${ownerDir}%2F${name}`,
      `/uploads/${ownerDir}/${name}%00.png`,
      `/uploads/${ownerDir}/${name!.toUpperCase()}`,
      `/uploads/${ownerDir}/../../package.json`,
      `/uploads/${ownerDir}/..%5C..%5Cpackage.json`,
      `/uploads/${ownerDir}/${name}.`,
      `/uploads/${ownerDir}/${name}/x`,
      `/uploads/${ownerDir}`,
      '/uploads/',
      `/uploads/${'a'.repeat(36)}/${'0'.repeat(32)}.html`,
    ];
    for (const url of attempts) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
    // The genuine address still works.
    expect((await app.inject({ url: r.url, ...asOwner() })).statusCode).toBe(200);
  });
});

describe('DELETE /api/files/single', () => {
  it('needs a token (401)', async () => {
    const r = await uploadOk(PNG, 'a.png');
    const res = await del(r.filePath, null);
    expect(res.statusCode).toBe(401);
    expect(existsSync(path.join(uploadsDir, r.filePath))).toBe(true);
  });

  it("refuses someone else's file, 404 while they cannot see it and 403 once it is public, and keeps it", async () => {
    const r = await uploadOk(PNG, 'a.png');
    expect((await del(r.url, otherToken)).statusCode).toBe(404);
    await createProject(database.db, owner.id, { attachments: [r.url] });
    const res = await del(r.url, otherToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 403, message: 'Недостаточно прав' });
    expect(existsSync(path.join(uploadsDir, r.filePath))).toBe(true);
    expect((await app.inject({ url: r.url })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown file', async () => {
    const res = await del(`${owner.id}/${'f'.repeat(32)}.png`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Не найдено' });
  });

  it('answers 400 to anything that is not a stored path or its url', async () => {
    const r = await uploadOk(PNG, 'a.png');
    const [ownerDir, name] = r.filePath.split('/');
    for (const bad of [
      '',
      '../../package.json',
      `${ownerDir}/../../package.json`,
      `/uploads/..%2F..%2Fpackage.json`,
      `${ownerDir}%2F${name}`,
      path.join(uploadsDir, r.filePath),
      '/etc/passwd',
      `http://evil.example/uploads/${r.filePath}`,
      `/uploads//${r.filePath}`,
    ]) {
      const res = await del(bad);
      expect(res.statusCode, bad).toBe(400);
    }
    expect((await del(42)).statusCode).toBe(400);
    expect(existsSync(path.join(uploadsDir, r.filePath))).toBe(true);
  });

  it('lets the owner delete by public url: row and file are gone', async () => {
    const r = await uploadOk(PNG, 'a.png');
    const res = await del(r.url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, result: true });
    expect(existsSync(path.join(uploadsDir, r.filePath))).toBe(false);
    expect(await database.db.select().from(filesTable).where(eq(filesTable.id, r._id))).toEqual([]);
    expect((await app.inject({ url: r.url })).statusCode).toBe(404);
    expect((await del(r.url)).statusCode).toBe(404);
  });

  it('lets the owner delete by stored path', async () => {
    const r = await uploadOk(PDF, 'a.pdf');
    expect((await del(r.filePath)).statusCode).toBe(200);
    expect(existsSync(path.join(uploadsDir, r.filePath))).toBe(false);
  });
});

describe('ownedFile', () => {
  it('finds a file only for its owner, by stored path or url', async () => {
    const r = await uploadOk(PNG, 'a.png');
    expect((await ownedFile(database.db, owner.id, r.filePath))?.id).toBe(r._id);
    expect((await ownedFile(database.db, owner.id, r.url))?.id).toBe(r._id);
    expect(await ownedFile(database.db, other.id, r.filePath)).toBeNull();
    expect(await ownedFile(database.db, owner.id, `../${r.filePath}`)).toBeNull();
    expect(await ownedFile(database.db, owner.id, `${owner.id}/${'0'.repeat(32)}.png`)).toBeNull();
  });
});

describe('sanitizeFileName', () => {
  it('drops directories, control and bidi characters, and never answers empty', () => {
    expect(sanitizeFileName('C:\\Users\\Иван\\отчёт.docx')).toBe('отчёт.docx');
    expect(sanitizeFileName('a\r\nb\t.txt')).toBe('a b .txt');
    expect(sanitizeFileName('...')).toBe('file');
    expect(sanitizeFileName(undefined)).toBe('file');
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
  });
});
