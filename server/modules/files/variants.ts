import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  variantPath,
  type VariantFormat,
  type VariantWidth,
} from '#contract/image-variants';
import type { LocalStorage } from '../../lib/storage.ts';

// Responsive sizes of uploaded pictures (docs/decisions/022), made with sharp (libvips) once: in the background
// right after the upload, or on the first request for one that is not there yet (an upload from before, or one
// still waiting in the queue). Each is written beside its picture as "<owner>/<hex>.w<width>.<format>".

/** Pictures whose variants are made; GIFs may be animated and SVGs scale by themselves. */
export const PICTURE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** A decompression bomb stops here (sharp's default allows 268 M pixels). */
const MAX_INPUT_PIXELS = 50_000_000;

/** The variant stored path's base: "<owner>/<hex>" of "<owner>/<hex>.<ext>". */
const baseOf = (key: string) => key.slice(0, key.lastIndexOf('.'));

export class PictureVariants {
  private readonly making = new Map<string, Promise<string | null>>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly tmpDir: string;

  constructor(private readonly storage: LocalStorage) {
    this.tmpDir = path.join(storage.root, '.tmp');
  }

  /** Every variant of a just-stored picture, one picture at a time so that uploads never crowd out pages. */
  schedule(key: string): void {
    this.queue = this.queue.then(async () => {
      for (const width of VARIANT_WIDTHS)
        for (const format of VARIANT_FORMATS) if (!this.closed) await this.ensure(key, width, format);
    });
  }

  /** Resolves when the background queue is empty (tests). */
  settled(): Promise<void> {
    return this.queue;
  }

  /** On shutdown: the variants still queued are left to their first request; the one being made is finished. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
  }

  /**
   * The file of a picture's variant, made now if it is not there yet (two requests for one variant share the
   * work); null when the picture cannot be read as one.
   */
  async ensure(key: string, width: VariantWidth, format: VariantFormat): Promise<string | null> {
    const target = variantPath(baseOf(key), width, format);
    const full = this.storage.resolve(target);
    if (!full) return null;
    if ((await stat(full).catch(() => null))?.isFile()) return full;
    let pending = this.making.get(target);
    if (!pending) {
      pending = this.make(key, target, width, format).finally(() => this.making.delete(target));
      this.making.set(target, pending);
    }
    return pending;
  }

  private async make(key: string, target: string, width: VariantWidth, format: VariantFormat): Promise<string | null> {
    const source = this.storage.resolve(key);
    if (!source) return null;
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomBytes(16).toString('hex')}.${format}`);
    try {
      // Loaded with the first picture: a start does not pay for libvips (ADR 018).
      const { default: sharp } = await import('sharp');
      // rotate(): EXIF orientation applied; metadata (EXIF, GPS) is not copied into the variant.
      const picture = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width, withoutEnlargement: true });
      // AVIF at effort 2: 20–25% below WebP at a quarter of the default effort's time (ADR 022's table).
      await (format === 'avif' ? picture.avif({ quality: 50, effort: 2 }) : picture.webp({ quality: 75 })).toFile(tmp);
      await this.storage.put(tmp, target);
      return this.storage.resolve(target);
    } catch {
      // Not a picture libvips can read (a truncated upload, a bomb), or the file went meanwhile: no variant.
      return null;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Removes every variant of a picture (a missing one is fine). */
  async remove(key: string): Promise<void> {
    const base = baseOf(key);
    await Promise.all(
      VARIANT_WIDTHS.flatMap((w) => VARIANT_FORMATS.map((f) => this.storage.remove(variantPath(base, w, f)).catch(() => {}))),
    );
  }
}
