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
import { PictureEncoder } from './encoder.ts';

// Responsive sizes of uploaded pictures (docs/decisions/022), made with sharp (libvips, in a child process: ADR 072)
// once: in the background right after the upload, or on the first request for one that is not there yet (an upload
// from before, or one still waiting in the queue). Each is stored beside its picture as "<owner>/<hex>.w<width>.<format>", in the local
// folder or the bucket alike (ADR 060): made from the stored original, stored back.

/** Pictures whose variants are made; GIFs may be animated and SVGs scale by themselves. */
export const PICTURE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** A decompression bomb stops here (sharp's default allows 268 M pixels). */
const MAX_INPUT_PIXELS = 50_000_000;

/** The variant stored path's base: "<owner>/<hex>" of "<owner>/<hex>.<ext>". */
const baseOf = (key: string) => key.slice(0, key.lastIndexOf('.'));

/** A variant to make: its size, its format, and where it is stored. */
interface Wanted {
  width: VariantWidth;
  format: VariantFormat;
  target: string;
}

export class PictureVariants {
  /** A variant being made, by its stored key: its key once stored, null when it could not be made. */
  private readonly making = new Map<string, Promise<string | null>>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly storage: Storage,
    /** sharp, in a child process of its own while there is work (ADR 072). */
    private readonly encoder = new PictureEncoder(),
  ) {}

  /** Every variant of a just-stored picture, one picture at a time so that uploads never crowd out pages. */
  schedule(key: string): void {
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      const missing: Wanted[] = [];
      for (const width of VARIANT_WIDTHS)
        for (const format of VARIANT_FORMATS) {
          const target = variantPath(baseOf(key), width, format);
          if (!this.making.has(target) && !(await this.stored(target))) missing.push({ width, format, target });
        }
      if (missing.length) await this.make(key, missing);
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
    this.encoder.stop();
  }

  /**
   * The stored key of a picture's variant, made now if it is not there yet (two requests for one variant share the
   * work); null when the picture cannot be read as one.
   */
  async ensure(key: string, width: VariantWidth, format: VariantFormat): Promise<string | null> {
    const target = variantPath(baseOf(key), width, format);
    if (await this.stored(target)) return target;
    if (!this.making.has(target)) void this.make(key, [{ width, format, target }]);
    return this.making.get(target)!;
  }

  private stored(target: string): Promise<boolean> {
    return this.storage.stat(target).then(
      (stat) => stat !== null,
      () => false,
    );
  }

  /**
   * Makes the wanted variants of one picture at once (each is in `making` as soon as this returns): its original is
   * copied to a local file once (it may live in a bucket), the worker writes each variant beside it, and each is
   * stored from there.
   */
  private make(key: string, wanted: Wanted[]): Promise<void> {
    const batch = this.encodeAll(key, wanted);
    for (const { target } of wanted) {
      const one = batch.then((stored) => (stored.has(target) ? target : null));
      this.making.set(target, one);
      void one.finally(() => this.making.delete(target));
    }
    return batch.then(() => {});
  }

  private async encodeAll(key: string, wanted: Wanted[]): Promise<Set<string>> {
    const stored = new Set<string>();
    const { tmpDir } = this.storage;
    const stem = path.join(tmpDir, randomBytes(16).toString('hex'));
    const input = `${stem}.original`;
    const outputs = wanted.map((w) => ({ ...w, output: `${stem}.w${w.width}.${w.format}` }));
    try {
      await mkdir(tmpDir, { recursive: true });
      const source = await this.storage.read(key);
      if (!source) return stored;
      await pipeline(source.body, createWriteStream(input, { flags: 'wx', mode: 0o600 }));
      const asked = outputs.map(({ output, width, format }) => ({ output, width, format }));
      const made = new Set(await this.encoder.encode({ input, max: MAX_INPUT_PIXELS, outputs: asked }));
      for (const { output, target } of outputs) {
        if (!made.has(output)) continue;
        await this.storage.put(output, target);
        stored.add(target);
      }
    } catch {
      // The original went meanwhile, or the storage failed: the variants not stored are made on their first request.
    } finally {
      await Promise.all([input, ...outputs.map((o) => o.output)].map((file) => rm(file, { force: true })));
    }
    return stored;
  }

  /** Removes every variant of a picture (a missing one is fine). */
  async remove(key: string): Promise<void> {
    const base = baseOf(key);
    await Promise.all(
      VARIANT_WIDTHS.flatMap((w) => VARIANT_FORMATS.map((f) => this.storage.remove(variantPath(base, w, f)).catch(() => {}))),
    );
  }
}
