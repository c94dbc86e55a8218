import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseVariantPath } from '#contract/image-variants';
import { badRequest, HttpError, notFound, ok, isBackendUnavailable } from '../../lib/http.ts';
import { tokenOf, userForToken, type Tokens } from '../../lib/auth.ts';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../users/index.ts';
import { fileUrl, type FileRow } from '../../platform/files.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { FILE_MESSAGES, INLINE_MIMES, MAX_FILE_SIZE, STORED_PATH_RE, type FileService } from './service.ts';
import { filePolicy } from './policy.ts';

/** Nothing a stored file contains may run: no scripts, no plugins, no forms, its own opaque origin. */
export const FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** RFC 8187 encoding of a file name for `filename*=UTF-8''…`. */
export const encodeRfc8187 = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const contentDisposition = (mime: string, name: string) =>
  INLINE_MIMES.has(mime) ? 'inline' : `attachment; filename*=UTF-8''${encodeRfc8187(name)}`;

/** A refused upload's body is read out up to this much more, so the client can read the answer (L6). */
const DRAIN_BYTES = MAX_FILE_SIZE + 5 * 1024 * 1024;
const DRAIN_MS = 30_000;

/**
 * Reads what is left of a request body and throws it away, up to `limit` bytes and `ms`: a client that is still
 * sending when it is refused then reads the 401 or 413 instead of a reset connection. Answers whether the body
 * ended; past the limits the connection is closed after the answer.
 */
function drain(raw: FastifyRequest['raw'], limit = DRAIN_BYTES, ms = DRAIN_MS): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('error', onEnd).off('close', onEnd);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) done(false);
    };
    const onEnd = () => done(raw.complete || raw.readableEnded);
    const timer = setTimeout(() => done(false), ms);
    raw.on('data', onData).once('end', onEnd).once('error', onEnd).once('close', onEnd);
    raw.resume();
  });
}

/**
 * Reads the one file of an upload request and stores it for the signed-in user. The whole body is read before
 * answering: a body that breaks off after the file (a second part cut short) is refused, and the file it
 * already stored is removed, so a 4xx never leaves a file behind.
 */
async function receive(files: FileService, request: FastifyRequest, user: UserRow) {
  if (!request.isMultipart()) throw badRequest(FILE_MESSAGES.missing);
  const free = await files.admit(user.id, request.ip);
  let uploaded: Awaited<ReturnType<FileService['upload']>> | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      // Only the first part named "file" is taken; busboy's own limit stops any further file part.
      if (uploaded || part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      uploaded = await files.upload(user.id, { filename: part.filename, file: part.file }, free);
    }
  } catch (err) {
    if (uploaded) await files.remove(user, uploaded.filePath).catch(() => {});
    // Refusals, and the storage or the database failing (a 503 the client retries), are not a broken body.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode === 413 || isBackendUnavailable(err)) throw err;
    // A broken multipart body (no boundary, cut short) is the client's fault.
    throw badRequest(uploaded ? FILE_MESSAGES.incomplete : FILE_MESSAGES.missing);
  }
  if (!uploaded) throw badRequest(FILE_MESSAGES.missing);
  return uploaded;
}

export const filesRoutes: FastifyPluginAsync<{ files: FileService; tokens: Tokens; db: Db; reads: ReadHandlers }> = async (
  app,
  { files, tokens, db, reads },
) => {
  await app.register(multipart, {
    // One file part, a few small fields at most.
    limits: { fileSize: MAX_FILE_SIZE, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 11 },
  });
  const { on, raw } = endpointsOf(app, reads);

  raw('files.upload', async ({ user }, { request }) => ok(await receive(files, request, user)), {
    // Refused before the whole body arrived (guest, too large, over the quota): read the rest out, within
    // bounds, so that the client sees the answer; a body beyond them closes the connection after it.
    onError: async (request, reply) => {
      if (!(await drain(request.raw))) reply.header('connection', 'close');
    },
  });

  on('files.remove', async ({ body, user }) => {
    await files.remove(user, body.filePath);
    return ok(true as const);
  });

  // A file a public use names (an avatar, a service image, …) is shown to guests too; any other only to whom a use
  // that names it admits, its owner and admins (filePolicy, ADR 041), and never kept by a shared cache.
  raw('files.download', async ({ params }, { request, reply }) => {
    const key = params['*'];
    // Stored names never need escaping: anything percent-encoded (%2F, %2e, %00, …) is not ours.
    if (request.url.includes('%')) throw notFound();
    const variant = parseVariantPath(key);
    if (variant) return sendVariant(variant, request, reply);
    if (!STORED_PATH_RE.test(key)) throw notFound();
    const row = await files.byPath(key);
    if (!row) throw notFound();
    const cache = await cacheControlFor(row, request);
    // Streamed through the app from the folder or the bucket, after the check above (ADR 060).
    const stored = await files.storage.read(key);
    if (!stored) throw notFound();

    return reply
      .header('content-type', row.mime)
      .header('content-length', stored.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CSP)
      .header('content-disposition', contentDisposition(row.mime, row.originalName))
      .header('cache-control', cache)
      .send(stored.body);
  });

  /** A picture's responsive size (ADR 022), seen by whoever may see the picture; made now if it is not yet. */
  async function sendVariant(variant: NonNullable<ReturnType<typeof parseVariantPath>>, request: FastifyRequest, reply: FastifyReply) {
    const row = await files.pictureOf(variant.base);
    if (!row) throw notFound();
    const cache = await cacheControlFor(row, request);
    const made = await files.variants.ensure(row.path, variant.width, variant.format);
    const stored = made ? await files.storage.read(made) : null;
    // A picture libvips cannot read still shows: the browser follows to the original.
    if (!stored) return reply.header('cache-control', 'no-store').redirect(fileUrl(row.path), 302);
    return reply
      .header('content-type', `image/${variant.format}`)
      .header('content-length', stored.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CSP)
      .header('content-disposition', 'inline')
      .header('cache-control', cache)
      .send(stored.body);
  }

  /** Whether the asker may read the file (404 as for a missing file when not) and how it may be cached. */
  async function cacheControlFor(row: FileRow, request: FastifyRequest): Promise<string> {
    if (await files.isPublic(row)) return 'public, max-age=31536000, immutable';
    // Outside /api the auth hook does not run: the cookie (sent with <img> and links) says who asks.
    const viewer = await userForToken(db, tokens, tokenOf(request));
    filePolicy.authorize(viewer, 'download', await files.subject(row, viewer));
    return 'private, no-store';
  }
};
