import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, lt, not, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files } from './schema.ts';
import { clearAvatarOf, type UserRow } from '../users/index.ts';
import { badRequest, HttpError } from '../../lib/http.ts';
import type { Actor } from '../../platform/policy.ts';
import { filePolicy, seesAnyFile, type FileSubject } from './policy.ts';
import type { Storage } from '../../lib/storage.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { userActor } from '../../platform/actor.ts';
import { systemClock } from '../../platform/clock.ts';
import { createWithTx, type WithTx } from '../../platform/tx.ts';
import { PICTURE_MIMES, PictureVariants } from './variants.ts';
import type { UploadedFile } from '#contract/files';
import { MESSAGES } from '#contract/messages';
import {
  type FileRow,
  type FileUse,
  fileForms,
  MAX_FILE_SIZE,
  SNIFF_BYTES,
  FILE_MESSAGES,
  STORED_PATH_RE,
  INLINE_MIMES,
  detectFileType,
  sanitizeFileName,
  parseFilePath,
  fileUrl,
  presentFile,
} from '../../platform/files.ts';

export { MAX_FILE_SIZE, FILE_MESSAGES, INLINE_MIMES, STORED_PATH_RE, sanitizeFileName };

const HOUR_MS = 60 * 60_000;
/** One address may upload this many times a person's rate: an office or a mobile carrier shares one. */
const ADDRESS_FACTOR = 10;
const megabytes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });
const freeSpace = (bytes: number) => `${megabytes.format(Math.max(0, bytes) / (1024 * 1024))} МБ`;

class FileTooLarge extends Error {}

export interface IncomingFile {
  filename?: string;
  /** The upload stream (busboy's, which ends early and sets `truncated` past its size limit). */
  file: Readable & { truncated?: boolean };
}

export class FileService {
  private readonly tmpDir: string;
  readonly maxSize: number;

  private readonly settings?: SettingsService;
  private readonly limiter?: RateLimiter;
  /** Responsive sizes of pictures; they do not count towards the owner's quota. */
  readonly variants: PictureVariants;
  /** False for the demo seed: the app queues its pictures once it runs (makeAllVariants). */
  private readonly makeVariants: boolean;
  /** Every module's uses of files (server/file-uses.ts, ADR 041): what keeps a file, and who may read it. */
  private readonly uses: readonly FileUse[];
  /** The platform's transactions (a removal and its avatar commit together). */
  private readonly withTx: WithTx;

  constructor(
    private readonly db: Db,
    readonly storage: Storage,
    /**
     * tmpDir: where uploads are written while they arrive (default the storage's); settings and limiter
     * apply the operator's quota and upload rate (the demo seed stores its pictures without them); uses are
     * FILE_USES; withTx is the platform's (the demo seed, which removes nothing, goes without: one over `db`).
     */
    opts: {
      uses: readonly FileUse[];
      tmpDir?: string;
      maxSize?: number;
      settings?: SettingsService;
      limiter?: RateLimiter;
      makeVariants?: boolean;
      withTx?: WithTx;
    },
  ) {
    this.uses = opts.uses;
    this.withTx = opts.withTx ?? createWithTx({ db, clock: systemClock });
    this.tmpDir = opts.tmpDir ?? storage.tmpDir;
    this.maxSize = opts.maxSize ?? MAX_FILE_SIZE;
    this.settings = opts.settings;
    this.limiter = opts.limiter;
    this.variants = new PictureVariants(storage);
    this.makeVariants = opts.makeVariants ?? true;
  }

  /** Queues the variants of every stored picture (a freshly seeded demo: its uploads were made before the app). */
  async makeAllVariants(): Promise<void> {
    const rows = await this.db.select({ path: files.path }).from(files).where(inArray(files.mime, [...PICTURE_MIMES]));
    for (const row of rows) this.variants.schedule(row.path);
  }

  /** Bytes a person keeps in uploads. */
  async usedBytes(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ used: sql<string>`coalesce(sum(${files.size}), 0)` })
      .from(files)
      .where(eq(files.ownerId, ownerId));
    return Number(row?.used ?? 0);
  }

  /**
   * Before an upload is read: the operator's rate per person and per address (429), and a quota already used
   * up (413). Answers the bytes still free.
   */
  async admit(ownerId: string, ip: string): Promise<number> {
    if (!this.settings || !this.limiter) return Number.MAX_SAFE_INTEGER;
    const { 'uploads.perHour': perHour, 'uploads.quotaBytes': quota } = await this.settings.all();
    const [person, address] = await Promise.all([
      this.limiter.hit(`uploads:user:${ownerId}`, perHour, HOUR_MS),
      this.limiter.hit(`uploads:ip:${ip}`, perHour * ADDRESS_FACTOR, HOUR_MS),
    ]);
    if (!person.allowed || !address.allowed) throw new HttpError(429, FILE_MESSAGES.tooMany);
    const free = quota - (await this.usedBytes(ownerId));
    if (free <= 0) throw new HttpError(413, FILE_MESSAGES.quota(freeSpace(0)));
    return free;
  }

  /**
   * Streams the upload to a temporary file, checks size and type, then moves it into place and records it;
   * `free` is what admit() answered: a file larger than that is refused (413) and nothing is kept.
   */
  async upload(ownerId: string, incoming: IncomingFile, free = Number.MAX_SAFE_INTEGER): Promise<UploadedFile> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomBytes(16).toString('hex')}.part`);
    let stored: string | null = null;
    try {
      const { size, head } = await this.receive(incoming.file, tmp);
      if (size === 0) throw badRequest(FILE_MESSAGES.empty);
      if (size > free) throw new HttpError(413, FILE_MESSAGES.quota(freeSpace(free)));
      const type = await detectFileType(head, tmp);
      if (!type) throw badRequest(FILE_MESSAGES.badType);

      const key = `${ownerId}/${randomBytes(16).toString('hex')}.${type.ext}`;
      await this.storage.put(tmp, key);
      stored = key;
      const [row] = await this.db
        .insert(files)
        .values({ ownerId, path: key, originalName: sanitizeFileName(incoming.filename), mime: type.mime, size })
        .returning();
      stored = null;
      if (this.makeVariants && PICTURE_MIMES.has(type.mime)) this.variants.schedule(key);
      return presentFile(row!);
    } finally {
      await rm(tmp, { force: true });
      if (stored) await this.storage.remove(stored).catch(() => {});
    }
  }

  private async receive(source: IncomingFile['file'], tmp: string): Promise<{ size: number; head: Uint8Array }> {
    const max = this.maxSize;
    let size = 0;
    const chunks: Buffer[] = [];
    let headLength = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) return done(new FileTooLarge());
        if (headLength < SNIFF_BYTES) {
          const part = chunk.subarray(0, SNIFF_BYTES - headLength);
          chunks.push(Buffer.from(part));
          headLength += part.length;
        }
        done(null, chunk);
      },
    });
    // busboy stops at its own limit and only flags it: stop writing at once rather than read the rest.
    const onLimit = () => counter.destroy(new FileTooLarge());
    source.once('limit', onLimit);
    const sink = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(source, counter, sink);
    } catch (err) {
      // pipeline rejects as soon as a stream fails, while the file may still be opening: wait until it is closed,
      // or the caller's rm runs first and the file appears after it, left behind by a refused upload.
      if (!sink.closed) await new Promise<void>((closed) => sink.once('close', () => closed()));
      if (err instanceof FileTooLarge || source.truncated) throw new HttpError(413, FILE_MESSAGES.tooLarge);
      // The disk failing is ours; a body that broke off ("Unexpected end of form") is the client's.
      if ((err as { syscall?: string }).syscall) throw err;
      throw badRequest(FILE_MESSAGES.incomplete);
    } finally {
      source.off('limit', onLimit);
    }
    if (source.truncated) throw new HttpError(413, FILE_MESSAGES.tooLarge);
    return { size, head: Buffer.concat(chunks) };
  }

  /** Whether a use that names the file shows it to everyone (served cacheable, to guests too). */
  async isPublic(row: FileRow): Promise<boolean> {
    return this.anyOf(row, this.uses.filter((use) => use.readers === 'everyone'));
  }

  /** What filePolicy needs to know of a file and the actor (the uses' readers are asked only when it matters). */
  async subject(row: FileRow, actor: Actor): Promise<FileSubject> {
    const subject = { ownerId: row.ownerId, public: await this.isPublic(row), reader: false };
    if (subject.public || !actor || seesAnyFile(actor, row)) return subject;
    return { ...subject, reader: await this.anyOf(row, this.uses, actor.id) };
  }

  /**
   * Whether one of these uses names the file (no reader given) or admits the reader to it: one statement, each
   * use's condition a lookup in its table.
   */
  private async anyOf(row: FileRow, uses: readonly FileUse[], reader?: string): Promise<boolean> {
    const file = fileForms(files.path);
    const conditions = uses.flatMap((use) => {
      if (reader === undefined) return [use.names(file)];
      return typeof use.readers === 'function' ? [use.readers(file, reader)] : [];
    });
    if (!conditions.length) return false;
    const [found] = await this.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, row.id), sql`(${sql.join(conditions, sql` or `)})`))
      .limit(1);
    return found !== undefined;
  }

  /** Where the last sweep stopped: each run looks at the next batch, and starts over after the newest. */
  private sweptUpTo: { createdAt: Date; id: string } | null = null;

  /**
   * Deletes uploads made before `before` that no declared use names (FILE_USES: an avatar, a service image, a chat
   * message, an appeal …), rows and bytes; looks at `batch` files a run. Answers how many went.
   */
  async sweepUnused(before: Date, batch = 500): Promise<number> {
    const after = this.sweptUpTo;
    const rows = await this.db
      .select({ id: files.id, createdAt: files.createdAt })
      .from(files)
      .where(
        and(
          lt(files.createdAt, before),
          after ? sql`(${files.createdAt}, ${files.id}) > (${after.createdAt}, ${after.id})` : undefined,
        ),
      )
      .orderBy(asc(files.createdAt), asc(files.id))
      .limit(batch);
    const last = rows.at(-1);
    this.sweptUpTo = rows.length === batch && last ? last : null;
    if (!rows.length) return 0;
    // A file is named by its url, or by its bare stored path where a client sent that; the check and the delete
    // are one statement, so a file that became used meanwhile stays. Any module's declared use keeps it.
    const file = fileForms(files.path);
    const gone = await this.db
      .delete(files)
      .where(
        and(
          inArray(
            files.id,
            rows.map((r) => r.id),
          ),
          ...this.uses.map((use) => not(use.names(file))),
        ),
      )
      .returning({ path: files.path });
    for (const { path: key } of gone) {
      await this.storage.remove(key).catch(() => {});
      await this.variants.remove(key);
    }
    return gone.length;
  }

  /** The row of a stored path, for serving. */
  async byPath(storedPath: string): Promise<FileRow | null> {
    const [row] = await this.db.select().from(files).where(eq(files.path, storedPath)).limit(1);
    return row ?? null;
  }

  /** The picture (JPEG, PNG or WebP) whose variants are named by a stored base "<owner>/<hex>". */
  async pictureOf(base: string): Promise<FileRow | null> {
    const [row] = await this.db
      .select()
      .from(files)
      .where(inArray(files.path, [`${base}.jpg`, `${base}.png`, `${base}.webp`]))
      .limit(1);
    return row && PICTURE_MIMES.has(row.mime) ? row : null;
  }

  /** Deletes the owner's file given by stored path or public url: 400 malformed, else as filePolicy says. */
  async remove(user: UserRow, filePath: string): Promise<void> {
    const key = parseFilePath(filePath);
    if (!key) throw badRequest(MESSAGES.validation, { filePath: [FILE_MESSAGES.badPath] });
    const found = await this.byPath(key);
    const row = filePolicy.authorize(user, 'remove', found && { ...found, ...(await this.subject(found, user)) });
    const ownerId = user.id;
    await this.withTx(userActor(user), async ({ tx }) => {
      await tx.delete(files).where(eq(files.id, row.id));
      // An avatar made of this file goes with it.
      await clearAvatarOf(tx, ownerId, fileUrl(row.path));
      // A failure here rolls the row back, so the row and the file go together.
      await this.storage.remove(row.path);
    });
    await this.variants.remove(row.path);
  }
}
