// npm run files:to-s3: copies DATA_DIR/uploads into the bucket of S3_BUCKET (S3_ENDPOINT, S3_REGION,
// S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE as the server reads them), keys unchanged, before the
// servers switch to the bucket (docs/deploy.md, ADR 060). Run again, it copies only what is missing or differs in
// size. Exits 1 when the settings are wrong, 2 when the copy failed part way (run it again).
import { loadEnv } from '../../env.ts';
import { s3SettingsOf } from '../../lib/storage-for.ts';
import { S3Storage } from '../../lib/s3-storage.ts';
import { LocalStorage, uploadsRoot } from '../../lib/storage.ts';
import { copyUploadsToBucket } from './copy-to-bucket.ts';

const FILES_VARIABLES = ['DATA_DIR', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];
// Only the files' variables are read: the command signs nothing, so the secrets are placeholders.
const PLACEHOLDER = 'not-used-by-the-files-copy-command-0123456789';

let env;
try {
  env = loadEnv({
    ...Object.fromEntries(FILES_VARIABLES.map((name) => [name, process.env[name]])),
    JWT_SECRET: PLACEHOLDER,
    PAYMENTS_WEBHOOK_SECRET: PLACEHOLDER,
  });
} catch (err) {
  console.error(`files:to-s3: ${(err as Error).message}`);
  process.exit(1);
}
const settings = s3SettingsOf(env);
if (!settings) {
  console.error('files:to-s3: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) to the bucket to copy into');
  process.exit(1);
}

const source = new LocalStorage(uploadsRoot(env.DATA_DIR));
const target = new S3Storage(settings, source.tmpDir);
try {
  const started = performance.now();
  const report = await copyUploadsToBucket(source, target);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`files:to-s3: ${report.copied} copied, ${report.skipped} already there, from ${source.root} to bucket ${settings.bucket} in ${seconds} s`);
} catch (err) {
  console.error('files:to-s3: the copy stopped (run it again to go on):', err);
  process.exitCode = 2;
} finally {
  await target.close();
}
