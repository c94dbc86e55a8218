import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, uploadsRoot } from '../../lib/storage.ts';
import type { S3Storage } from '../../lib/s3-storage.ts';
import { startS3Server, type TestS3 } from '../../test/s3-server.ts';
import { copyUploadsToBucket } from './copy-to-bucket.ts';

// `npm run files:to-s3` (ADR 060): an existing uploads folder copied into a bucket under the same keys, idempotently.

const root = path.resolve(import.meta.dirname, '../../..');
const OWNER = '0b6f5b4e-9a53-4f3e-8f43-3c1f2d9d8a11';
const KEYS = {
  picture: `${OWNER}/${'a'.repeat(32)}.jpg`,
  variant: `${OWNER}/${'a'.repeat(32)}.w320.webp`,
  document: `${OWNER}/${'b'.repeat(32)}.pdf`,
};

let s3: TestS3;
let bucket: S3Storage;
let dataDir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = s3.storage();
  dataDir = await mkdtemp(path.join(tmpdir(), 'podryad-copy-'));
  const uploads = uploadsRoot(dataDir);
  await mkdir(path.join(uploads, OWNER), { recursive: true });
  await mkdir(path.join(uploads, '.tmp'), { recursive: true });
  await writeFile(path.join(uploads, KEYS.picture), 'picture bytes');
  await writeFile(path.join(uploads, KEYS.variant), 'variant');
  await writeFile(path.join(uploads, KEYS.document), 'документ');
  await writeFile(path.join(uploads, '.tmp', 'half-uploaded.part'), 'half');
});

afterAll(async () => {
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of bucket.list()) keys.push(o.key);
  return keys.sort();
}

async function tmpFile(content: string) {
  const file = path.join(dataDir, `${Math.random().toString(36).slice(2)}.part`);
  await writeFile(file, content);
  return file;
}

/** The command as `npm run files:to-s3` runs it. */
function runCommand(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/modules/files/copy-to-bucket-command.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('copyUploadsToBucket', () => {
  it('copies what the bucket lacks or holds at another size, skips the rest, leaves the folder and its .tmp alone', async () => {
    // One already there as it is; one there at another size (a copy cut short).
    await bucket.put(await tmpFile('документ'), KEYS.document);
    await bucket.put(await tmpFile('pic'), KEYS.picture);
    const copied: string[] = [];

    const first = await copyUploadsToBucket(new LocalStorage(uploadsRoot(dataDir)), bucket, (key) => copied.push(key));
    expect(first).toEqual({ copied: 2, skipped: 1 });
    expect(copied.sort()).toEqual([KEYS.picture, KEYS.variant].sort());
    expect(await bucketKeys()).toEqual(Object.values(KEYS).sort());
    expect(await text((await bucket.read(KEYS.picture))!.body)).toBe('picture bytes');
    expect(existsSync(path.join(uploadsRoot(dataDir), KEYS.picture))).toBe(true);

    const again = await copyUploadsToBucket(new LocalStorage(uploadsRoot(dataDir)), bucket);
    expect(again).toEqual({ copied: 0, skipped: 3 });
  });

  it('runs as npm run files:to-s3 with the server’s variables, and says what is missing', { timeout: 60_000 }, async () => {
    const ran = await runCommand({ DATA_DIR: dataDir, ...s3.env });
    expect(ran.out).toContain('0 copied, 3 already there');
    expect(ran.code).toBe(0);

    const unset = await runCommand({ DATA_DIR: dataDir });
    expect(unset.code).toBe(1);
    expect(unset.out).toContain('set S3_BUCKET');
  });
});
