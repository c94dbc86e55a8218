import { createReadStream, type Dirent } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** An object's body as read: its length (for content-length) and its bytes. */
export interface StoredBody {
  size: number;
  body: Readable;
}

export interface StoredObject {
  key: string;
  size: number;
}

/**
 * Where uploaded files live (ADR 060). Keys are relative, '/'-separated and chosen by the server
 * ("<owner id>/<random>.<ext>"). The local folder by default, an S3-compatible bucket on several machines.
 */
export interface Storage {
  /** Where uploads and picture variants are written while they are made, before `put` takes them. */
  readonly tmpDir: string;
  /** Takes a finished temporary file in under `key` (the temporary file is gone afterwards). */
  put(tmpPath: string, key: string): Promise<void>;
  /** The object under `key`, or null when there is none. */
  read(key: string): Promise<StoredBody | null>;
  /** The size of the object under `key`, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object under `key`; a missing object is not an error. */
  remove(key: string): Promise<void>;
  /** Every object (the copy into a bucket walks them), in no promised order. */
  list(): AsyncIterable<StoredObject>;
  /** Lets go of connections on shutdown. */
  close?(): Promise<void>;
}

/** Where uploads live on disk: `<DATA_DIR>/uploads` (the app serves them, the demo seed fills them). */
export const uploadsRoot = (dataDir: string) => path.join(dataDir, 'uploads');

/** Whether a key is one the server could have chosen: relative, no empty, '.' or '..' parts, no NUL or backslash. */
export function validKey(key: string): boolean {
  if (!key || key.includes('\0') || key.includes('\\') || key.startsWith('/')) return false;
  return !key.split('/').some((part) => part === '' || part === '.' || part === '..');
}

export class LocalStorage implements Storage {
  readonly root: string;
  /** Beside the stored files: same filesystem, so finished uploads are moved by a rename. */
  readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  /** The absolute path of `key`, or null when the key is malformed or would land outside the root. */
  resolve(key: string): string | null {
    if (!validKey(key) || path.isAbsolute(key)) return null;
    const full = path.resolve(this.root, key);
    return full.startsWith(this.root + path.sep) ? full : null;
  }

  async put(tmpPath: string, key: string): Promise<void> {
    const target = this.mustResolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(tmpPath, target);
    } catch (err) {
      // The temporary directory may sit on another filesystem.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      try {
        await copyFile(tmpPath, target);
      } catch (copyErr) {
        await rm(target, { force: true });
        throw copyErr;
      }
      await rm(tmpPath, { force: true });
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const full = this.resolve(key);
    const info = full ? await stat(full).catch(() => null) : null;
    return info?.isFile() ? { size: info.size } : null;
  }

  async read(key: string): Promise<StoredBody | null> {
    const found = await this.stat(key);
    return found ? { size: found.size, body: createReadStream(this.mustResolve(key)) } : null;
  }

  async remove(key: string): Promise<void> {
    await rm(this.mustResolve(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    yield* this.walk('');
  }

  /** Files under a folder of the root; dot entries (the temporary folder) are not stored objects. */
  private async *walk(prefix: string): AsyncIterable<StoredObject> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.root, prefix), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) {
        const info = await stat(path.join(this.root, key)).catch(() => null);
        if (info) yield { key, size: info.size };
      }
    }
  }

  private mustResolve(key: string): string {
    const full = this.resolve(key);
    if (!full) throw new Error(`storage key outside the storage root: ${JSON.stringify(key)}`);
    return full;
  }
}
