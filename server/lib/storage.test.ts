import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, type Storage } from './storage.ts';
import { startS3Server, type TestS3 } from '../test/s3-server.ts';

// The storage port's contract (ADR 060), the same for the local folder and an S3 bucket (s3rver, a real
// S3-compatible server the SDK talks to over HTTP).

let s3: TestS3;
let scratch: string;

beforeAll(async () => {
  s3 = await startS3Server();
  scratch = await mkdtemp(path.join(tmpdir(), 'podryad-storage-'));
});
afterAll(async () => {
  await s3?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A temporary file with this content, as an upload leaves it. */
async function tmpFile(content: string): Promise<string> {
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.part`);
  await writeFile(file, content);
  return file;
}

const OWNER = '0b6f5b4e-9a53-4f3e-8f43-3c1f2d9d8a11';

describe.each([
  ['local folder', () => new LocalStorage(path.join(scratch, 'uploads'))],
  ['S3 bucket', () => s3.storage(path.join(scratch, 'tmp'))],
] as const)('%s', (_name, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });

  it('takes a temporary file in, reads it back with its size, and the temporary file is gone', async () => {
    const tmp = await tmpFile('привет, файл');
    const key = `${OWNER}/${'a'.repeat(32)}.txt`;
    await storage.put(tmp, key);
    expect(existsSync(tmp)).toBe(false);
    const size = Buffer.byteLength('привет, файл');
    expect(await storage.stat(key)).toEqual({ size });
    const read = await storage.read(key);
    expect(read?.size).toBe(size);
    expect(await text(read!.body)).toBe('привет, файл');
  });

  it('answers null for a missing object, and removing one is no error', async () => {
    const key = `${OWNER}/${'b'.repeat(32)}.txt`;
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it('removes an object', async () => {
    const key = `${OWNER}/${'c'.repeat(32)}.txt`;
    await storage.put(await tmpFile('x'), key);
    await storage.remove(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it('lists every object with its size, and nothing of the temporary folder', async () => {
    const keys = [`${OWNER}/${'d'.repeat(32)}.txt`, `${OWNER}/${'d'.repeat(32)}.w320.webp`, `other/${'e'.repeat(32)}.pdf`];
    for (const [i, key] of keys.entries()) await storage.put(await tmpFile('y'.repeat(i + 1)), key);
    const listed = new Map<string, number>();
    for await (const o of storage.list()) listed.set(o.key, o.size);
    expect(keys.map((k) => listed.get(k))).toEqual([1, 2, 3]);
    expect([...listed.keys()].some((k) => k.startsWith('.') || k.includes('/.'))).toBe(false);
  });

  it('refuses a key that could leave its place', async () => {
    for (const key of ['../x.txt', `${OWNER}/../../x.txt`, '/etc/passwd', 'a//b.txt', 'a\\b.txt', '']) {
      await expect(storage.put(await tmpFile('z'), key), key).rejects.toThrow();
    }
  });
});
