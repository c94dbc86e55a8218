import path from 'node:path';
import type { LocalStorage } from '../../lib/storage.ts';
import type { S3Storage } from '../../lib/s3-storage.ts';

/** Objects copied at once: a few uploads in flight, not the whole folder. */
const PARALLEL = 8;

export interface CopyReport {
  copied: number;
  /** Already in the bucket with the same size (a run that was stopped, or run twice). */
  skipped: number;
}

/**
 * Copies every file of an uploads folder (originals and picture variants) into the bucket under the same key
 * (ADR 060). Idempotent: a key the bucket holds with the same size is skipped, so a stopped run is simply run again.
 * The folder is left as it is.
 */
export async function copyUploadsToBucket(
  source: LocalStorage,
  target: S3Storage,
  onCopied: (key: string) => void = () => {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0 };
  const pending = new Set<Promise<void>>();
  for await (const { key, size } of source.list()) {
    const one = (async () => {
      const there = await target.stat(key);
      if (there?.size === size) {
        report.skipped++;
        return;
      }
      await target.upload(path.join(source.root, key), key);
      report.copied++;
      onCopied(key);
    })().finally(() => pending.delete(one));
    pending.add(one);
    if (pending.size >= PARALLEL) await Promise.race(pending);
  }
  await Promise.all(pending);
  return report;
}
