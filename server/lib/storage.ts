import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live. Keys are relative, '/'-separated and chosen by the server
 * ("<owner id>/<random>.<ext>"). Local disk today; an S3 adapter can take its place later.
 */
export interface Storage {
  /** Moves a finished temporary file into place under `key` (the temporary file is gone afterwards). */
  put(tmpPath: string, key: string): Promise<void>;
  /** Removes the object under `key`; a missing object is not an error. */
  remove(key: string): Promise<void>;
}

/** Where uploads live on disk: `<DATA_DIR>/uploads` (the app serves them, the demo seed fills them). */
export const uploadsRoot = (dataDir: string) => path.join(dataDir, 'uploads');

export class LocalStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path of `key`, or null when the key is malformed or would land outside the root. */
  resolve(key: string): string | null {
    if (!key || key.includes('\0') || key.includes('\\') || path.isAbsolute(key)) return null;
    if (key.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
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

  async remove(key: string): Promise<void> {
    await rm(this.mustResolve(key), { force: true });
  }

  private mustResolve(key: string): string {
    const full = this.resolve(key);
    if (!full) throw new Error(`storage key outside the storage root: ${JSON.stringify(key)}`);
    return full;
  }
}
