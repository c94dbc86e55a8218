import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  variantPath,
  type VariantFormat,
  type VariantWidth,
} from '#contract/image-variants';
import type { Storage } from '../../lib/storage.ts';
import type Sharp from 'sharp';

// Responsive sizes of uploaded pictures (docs/decisions/022), made with sharp (libvips) once: in the background
// right after the upload, or on the first request for one that is not there yet (an upload from before, or one
// still waiting in the queue). Each is stored beside its picture as "<owner>/<hex>.w<width>.<format>", in the local
// folder or the bucket alike (ADR 060): made from the stored original, stored back.

/** Pictures whose variants are made; GIFs may be animated and SVGs scale by themselves. */
export const PICTURE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** A decompression bomb stops here (sharp's default allows 268 M pixels). */
const MAX_INPUT_PIXELS = 50_000_000;

/** The variant stored path's base: "<owner>/<hex>" of "<owner>/<hex>.<ext>". */
const baseOf = (key: string) => key.slice(0, key.lastIndexOf('.'));

let sharpLoaded: Promise<typeof Sharp> | null = null;
/**
 * sharp, with libvips' operation cache off (ADR 064): each variant streams its original in once, so the cache (up to
 * 50 MB by default) never served a hit and only stayed as idle memory after the demo seed's pictures.
 */
function loadSharp(): Promise<typeof Sharp> {
  return (sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));
}

export class PictureVariants {
  private readonly making = new Map<string, Promise<string | null>>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly storage: Storage) {}

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
   * The stored key of a picture's variant, made now if it is not there yet (two requests for one variant share the
   * work); null when the picture cannot be read as one.
   */
  async ensure(key: string, width: VariantWidth, format: VariantFormat): Promise<string | null> {
    const target = variantPath(baseOf(key), width, format);
    if (await this.storage.stat(target).catch(() => null)) return target;
    let pending = this.making.get(target);
    if (!pending) {
      pending = this.make(key, target, width, format).finally(() => this.making.delete(target));
      this.making.set(target, pending);
    }
    return pending;
  }

  private async make(key: string, target: string, width: VariantWidth, format: VariantFormat): Promise<string | null> {
    const { tmpDir } = this.storage;
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `${randomBytes(16).toString('hex')}.${format}`);
    try {
      // Loaded with the first picture: a start does not pay for libvips (ADR 018).
      const sharp = await loadSharp();
      const source = await this.storage.read(key);
      if (!source) return null;
      // rotate(): EXIF orientation applied; metadata (EXIF, GPS) is not copied into the variant.
      const picture = sharp({ limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width, withoutEnlargement: true });
      // AVIF at effort 2: 20–25% below WebP at a quarter of the default effort's time (ADR 022's table).
      const encoded = format === 'avif' ? picture.avif({ quality: 50, effort: 2 }) : picture.webp({ quality: 75 });
      // The original streams in from the storage (a file or the bucket), the variant out to a temporary file.
      await pipeline(source.body, encoded, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await this.storage.put(tmp, target);
      return target;
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
