import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import type { Db } from '../../db/client.ts';
import { files } from '../../db/schema/files.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { chatMembers, messages } from '../../db/schema/chat.ts';
import { projects, services } from '../../db/schema/catalog.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/http.ts';
import type { LocalStorage } from '../../lib/storage.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { MESSAGES } from '#contract/messages';

export type FileRow = typeof files.$inferSelect;

export const MAX_FILE_SIZE = 20 * 1024 * 1024;
/** How much of the start of a file the type detection looks at. */
export const SNIFF_BYTES = 4100;
export const MAX_ORIGINAL_NAME = 200;
/** Public address prefix of stored files. */
export const UPLOADS_PREFIX = '/uploads/';

// Candidates for contract/messages.ts once the web client shows them.
export const FILE_MESSAGES = {
  tooLarge: 'Файл больше 20 МБ',
  badType: 'Недопустимый тип файла',
  empty: 'Файл пустой',
  missing: 'Файл не передан',
  incomplete: 'Файл передан не полностью, загрузите его ещё раз',
  badPath: 'Некорректный путь к файлу',
  tooMany: 'Слишком много загрузок, попробуйте через час',
  quota: (free: string) => `Не хватает места для файлов: свободно ${free}. Удалите ненужные файлы`,
} as const;

const HOUR_MS = 60 * 60_000;
/** One address may upload this many times a person's rate: an office or a mobile carrier shares one. */
const ADDRESS_FACTOR = 10;
const megabytes = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });
const freeSpace = (bytes: number) => `${megabytes.format(Math.max(0, bytes) / (1024 * 1024))} МБ`;

/** The shape of a stored path: "<owner uuid>/<32 hex>.<ext>". Nothing else is ever served or deleted. */
export const STORED_PATH_RE = /^[0-9a-f-]{36}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

export interface DetectedType {
  ext: string;
  mime: string;
}

/** What the upload answers (SPEC §7). */
export interface UploadedFile {
  _id: string;
  filePath: string;
  url: string;
  name: string;
  mime: string;
  size: number;
}

// Detected by content (file-type's ext → what we store). Anything not listed is refused.
const ALLOWED: Record<string, DetectedType> = {
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  apng: { ext: 'png', mime: 'image/png' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  docx: { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { ext: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { ext: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  odt: { ext: 'odt', mime: 'application/vnd.oasis.opendocument.text' },
  ods: { ext: 'ods', mime: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { ext: 'odp', mime: 'application/vnd.oasis.opendocument.presentation' },
  rtf: { ext: 'rtf', mime: 'application/rtf' },
  // Legacy .doc/.xls/.ppt: Compound File Binary, not told apart further.
  cfb: { ext: 'cfb', mime: 'application/x-cfb' },
  zip: { ext: 'zip', mime: 'application/zip' },
  rar: { ext: 'rar', mime: 'application/vnd.rar' },
  '7z': { ext: '7z', mime: 'application/x-7z-compressed' },
  gz: { ext: 'gz', mime: 'application/gzip' },
  'tar.gz': { ext: 'tgz', mime: 'application/gzip' },
  tar: { ext: 'tar', mime: 'application/x-tar' },
};

const SVG: DetectedType = { ext: 'svg', mime: 'image/svg+xml' };

/** Types a browser may show in place; everything else is served as a download. */
// PDFs download: browsers refuse to run their PDF viewer under the sandbox CSP that uploads get.
export const INLINE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/svg+xml']);

/**
 * file-type does not know SVG: text whose first tag (after a BOM, whitespace, an XML declaration,
 * comments and a doctype) is <svg.
 */
export function looksLikeSvg(head: Uint8Array): boolean {
  let text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const prolog = /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^>[]*(?:\[[^\]]*\][^>]*)?>)/i;
  for (let m = prolog.exec(text); m && m[0].length > 0; m = prolog.exec(text)) text = text.slice(m[0].length);
  return /^<svg[\s>/]/i.test(text);
}

/**
 * The type of an uploaded file by its content: `head` is its start (SNIFF_BYTES), `filePath` the whole
 * file, read only to tell zip-based documents (docx, odt, …) from plain zips. Null when not allowed.
 */
export async function detectFileType(head: Uint8Array, filePath?: string): Promise<DetectedType | null> {
  let found = await fileTypeFromBuffer(head);
  if (found?.ext === 'zip' && filePath) {
    // A broken archive stays a plain zip.
    found = (await fileTypeFromFile(filePath).catch(() => undefined)) ?? found;
  }
  if (found && found.ext !== 'xml') return ALLOWED[found.ext] ?? null;
  return looksLikeSvg(head) ? SVG : null;
}

/** The uploader's file name made harmless: no directories, control or bidi characters, at most 200 characters. */
export function sanitizeFileName(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff0-\uffff]/g, '')
    .trim()
    .replace(/^\.+/, '');
  const limited = Array.from(cleaned).slice(0, MAX_ORIGINAL_NAME).join('').trim();
  return limited || 'file';
}

/** A stored path from what a client sends: the stored path itself or its public url; null when it is neither. */
export function parseFilePath(input: string): string | null {
  const key = input.startsWith(UPLOADS_PREFIX) ? input.slice(UPLOADS_PREFIX.length) : input;
  return STORED_PATH_RE.test(key) ? key : null;
}

export const fileUrl = (storedPath: string) => `${UPLOADS_PREFIX}${storedPath}`;

export function presentFile(row: FileRow): UploadedFile {
  return { _id: row.id, filePath: row.path, url: fileUrl(row.path), name: row.originalName, mime: row.mime, size: row.size };
}

/**
 * The file row behind `filePath` (stored path or public url) when it belongs to `ownerId`, else null.
 * For other features that take a file from a user (avatars, service images, chat attachments).
 */
export async function ownedFile(db: Db, ownerId: string, filePath: string): Promise<FileRow | null> {
  const key = parseFilePath(filePath);
  if (!key) return null;
  const [row] = await db.select().from(files).where(eq(files.path, key)).limit(1);
  return row && row.ownerId === ownerId ? row : null;
}

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

  constructor(
    private readonly db: Db,
    readonly storage: LocalStorage,
    /**
     * tmpDir: where uploads are written while they arrive (default `<storage root>/.tmp`); settings and limiter
     * apply the operator's quota and upload rate (the demo seed stores its pictures without them).
     */
    opts: { tmpDir?: string; maxSize?: number; settings?: SettingsService; limiter?: RateLimiter } = {},
  ) {
    // Beside the stored files by default: same filesystem, so finished uploads are moved by a rename.
    this.tmpDir = opts.tmpDir ?? path.join(storage.root, '.tmp');
    this.maxSize = opts.maxSize ?? MAX_FILE_SIZE;
    this.settings = opts.settings;
    this.limiter = opts.limiter;
  }

  /** Bytes a person keeps in uploads. */
  async usedBytes(ownerId: string): Promise<number> {
    const [row] = await this.db.select({ used: sql<string>`coalesce(sum(${files.size}), 0)` }).from(files).where(eq(files.ownerId, ownerId));
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
    try {
      await pipeline(source, counter, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
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

  /**
   * Null when the file was never sent in a chat (it is public: an avatar, a service image, a project attachment);
   * otherwise who may see it: its owner, an admin, or a member of a chat where it was sent.
   */
  async chatAccess(row: FileRow): Promise<((viewer: UserRow) => Promise<boolean>) | null> {
    // Messages keep urls; the bare stored path is accepted too, as everywhere a client names a file.
    const sentWith = sql`${messages.files} && array[${fileUrl(row.path)}, ${row.path}]::text[]`;
    const [sent] = await this.db.select({ id: messages.id }).from(messages).where(sentWith).limit(1);
    if (!sent) return null;
    return async (viewer) => {
      if (viewer.id === row.ownerId || viewer.roles.includes('admin')) return true;
      const [member] = await this.db
        .select({ id: messages.id })
        .from(messages)
        .innerJoin(chatMembers, and(eq(chatMembers.chatId, messages.chatId), eq(chatMembers.userId, viewer.id)))
        .where(sentWith)
        .limit(1);
      return member !== undefined;
    };
  }

  /** Where the last sweep stopped: each run looks at the next batch, and starts over after the newest. */
  private sweptUpTo: { createdAt: Date; id: string } | null = null;

  /**
   * Deletes uploads made before `before` that nothing uses (an avatar, a service image, a project attachment, a
   * chat message), rows and bytes; looks at `batch` files a run. Answers how many went.
   */
  async sweepUnused(before: Date, batch = 500): Promise<number> {
    const after = this.sweptUpTo;
    const rows = await this.db
      .select({ id: files.id, createdAt: files.createdAt })
      .from(files)
      .where(and(lt(files.createdAt, before), after ? sql`(${files.createdAt}, ${files.id}) > (${after.createdAt}, ${after.id})` : undefined))
      .orderBy(asc(files.createdAt), asc(files.id))
      .limit(batch);
    const last = rows.at(-1);
    this.sweptUpTo = rows.length === batch && last ? last : null;
    if (!rows.length) return 0;
    // A file is named by its url, or by its bare stored path where a client sent that; the check and the delete
    // are one statement, so a file that became used meanwhile stays.
    const forms = sql`array['/uploads/' || ${files.path}, ${files.path}]::text[]`;
    const gone = await this.db
      .delete(files)
      .where(
        and(
          inArray(
            files.id,
            rows.map((r) => r.id),
          ),
          sql`not exists (select 1 from ${users} where ${users.avatar} = any(${forms}))`,
          sql`not exists (select 1 from ${services} where ${services.images} && ${forms})`,
          sql`not exists (select 1 from ${projects} where ${projects.attachments} && ${forms})`,
          sql`not exists (select 1 from ${messages} where ${messages.files} && ${forms})`,
        ),
      )
      .returning({ path: files.path });
    for (const { path: key } of gone) await this.storage.remove(key).catch(() => {});
    return gone.length;
  }

  /** The row of a stored path, for serving. */
  async byPath(storedPath: string): Promise<FileRow | null> {
    const [row] = await this.db.select().from(files).where(eq(files.path, storedPath)).limit(1);
    return row ?? null;
  }

  /** Deletes a file of `ownerId` given by stored path or public url: 400 malformed, 404 unknown, 403 someone else's. */
  async remove(ownerId: string, filePath: string): Promise<void> {
    const key = parseFilePath(filePath);
    if (!key) throw badRequest(MESSAGES.validation, { filePath: [FILE_MESSAGES.badPath] });
    const row = await this.byPath(key);
    if (!row) throw notFound();
    if (row.ownerId !== ownerId) throw forbidden();
    await this.db.transaction(async (tx) => {
      await tx.delete(files).where(eq(files.id, row.id));
      // An avatar made of this file goes with it.
      await tx.update(users).set({ avatar: null }).where(and(eq(users.id, ownerId), eq(users.avatar, fileUrl(row.path))));
      // A failure here rolls the row back, so the row and the file go together.
      await this.storage.remove(row.path);
    });
  }
}
