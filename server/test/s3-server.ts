import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3Storage } from '../lib/s3-storage.ts';

// A real S3-compatible server for tests (s3rver from npm): the AWS SDK speaks its protocol to it, signatures
// checked, objects kept in a folder of its own. ADR 060.

/** s3rver's one account. */
const KEY = 'S3RVER';

export interface TestS3 {
  bucket: string;
  /** The S3_* variables of an app that keeps its files in the bucket. */
  env: Record<string, string>;
  /** A client of the bucket, as the app makes it; closed with the server. */
  storage(tmpDir?: string): S3Storage;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port with one empty bucket. */
export async function startS3Server(bucket = 'podryad-files'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'podryad-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: KEY,
    S3_SECRET_ACCESS_KEY: KEY,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const clients: S3Storage[] = [];
  return {
    bucket,
    env,
    storage(tmpDir = path.join(directory, '.tmp')) {
      const made = new S3Storage(
        { bucket, endpoint: env.S3_ENDPOINT, region: env.S3_REGION, accessKeyId: KEY, secretAccessKey: KEY, forcePathStyle: true },
        tmpDir,
      );
      clients.push(made);
      return made;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
