import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type * as Sdk from '@aws-sdk/client-s3';
import { validKey, type Storage, type StoredBody, type StoredObject } from './storage.ts';

/** A bucket of an S3-compatible service (Yandex Object Storage, Selectel, VK Cloud, MinIO …): ADR 060. */
export interface S3Settings {
  bucket: string;
  /** The service's address; unset, AWS's own for the region. */
  endpoint?: string;
  region: string;
  /** Unset, the SDK's own chain (AWS_* variables, a profile, an instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Addresses as <endpoint>/<bucket>/<key> rather than <bucket>.<endpoint>/<key> (MinIO and most local servers). */
  forcePathStyle: boolean;
}

/** Listed a page at a time. */
const LIST_PAGE = 1000;

const missing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

export class S3Storage implements Storage {
  private client: Promise<{ s3: Sdk.S3Client; sdk: typeof Sdk }> | null = null;

  constructor(
    readonly settings: S3Settings,
    readonly tmpDir: string,
  ) {}

  /** The SDK is loaded with the first file, not at every start (ADR 018). */
  private connect() {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = this.settings;
      const s3 = new sdk.S3Client({
        endpoint,
        region,
        forcePathStyle,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
        // Checksums only where the API requires them: not every S3-compatible service knows the newer ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { s3, sdk };
    });
    return this.client;
  }

  private key(key: string): string {
    if (!validKey(key)) throw new Error(`malformed storage key: ${JSON.stringify(key)}`);
    return key;
  }

  async put(tmpPath: string, key: string): Promise<void> {
    await this.upload(tmpPath, key);
    await rm(tmpPath, { force: true });
  }

  /** Copies a file on this machine into the bucket under `key`; the file stays (the uploads copy command). */
  async upload(filePath: string, key: string): Promise<void> {
    const { s3, sdk } = await this.connect();
    const { size } = await stat(filePath);
    await s3.send(
      new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key), Body: createReadStream(filePath), ContentLength: size }),
    );
  }

  async read(key: string): Promise<StoredBody | null> {
    const { s3, sdk } = await this.connect();
    try {
      const got = await s3.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
      return { size: got.ContentLength ?? 0, body: got.Body as Readable };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { s3, sdk } = await this.connect();
    try {
      const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    const { s3, sdk } = await this.connect();
    // S3 answers a delete of a missing key as a success.
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
  }

  async *list(): AsyncIterable<StoredObject> {
    const { s3, sdk } = await this.connect();
    // Paged by the last key seen (StartAfter) rather than continuation tokens: every S3-compatible service has it.
    let after: string | undefined;
    for (;;) {
      const page = await s3.send(
        new sdk.ListObjectsV2Command({ Bucket: this.settings.bucket, MaxKeys: LIST_PAGE, StartAfter: after }),
      );
      const objects = page.Contents ?? [];
      for (const object of objects) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      const last = objects.at(-1)?.Key;
      if (!page.IsTruncated || !last) return;
      after = last;
    }
  }

  /** Closes the client's connections (tests, the copy command). */
  async close(): Promise<void> {
    if (this.client) (await this.client).s3.destroy();
  }
}
