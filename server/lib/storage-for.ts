import path from 'node:path';
import type { Env } from '../env.ts';
import { LocalStorage, uploadsRoot, type Storage } from './storage.ts';
import { S3Storage, type S3Settings } from './s3-storage.ts';

type S3Env = Pick<Env, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>;

/** The S3 settings of the environment, or null when files stay in the data folder. */
export function s3SettingsOf(env: S3Env): S3Settings | null {
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

/** The storage the environment asks for: the bucket of `S3_BUCKET`, else `<DATA_DIR>/uploads`. */
export function storageFor(env: S3Env & Pick<Env, 'DATA_DIR'>): Storage {
  const s3 = s3SettingsOf(env);
  // Uploads arrive on this machine's disk first; only the finished file goes to the bucket.
  return s3 ? new S3Storage(s3, path.join(env.DATA_DIR, 'tmp', 'uploads')) : new LocalStorage(uploadsRoot(env.DATA_DIR));
}
