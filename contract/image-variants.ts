// Responsive sizes of an uploaded picture (docs/decisions/022): every JPEG, PNG or WebP upload is also served at a
// few widths as AVIF and WebP, under addresses derived from its own, so that pages need no more data than the
// picture's url. Zod-free: the guest's pages import it.

/** The widths made of every picture (never enlarged: a narrower picture's variants are its own width). */
export const VARIANT_WIDTHS = [320, 640, 960] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
/** Best first: a <picture> offers AVIF, then WebP, then the original. */
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** An upload that has variants: "/uploads/<owner uuid>/<32 hex>.(jpg|png|webp)". GIFs may move; SVGs scale. */
const PICTURE_URL_RE = /^\/uploads\/([0-9a-f-]{36}\/[0-9a-f]{32})\.(?:jpg|png|webp)$/;
/** A variant's stored path: "<owner uuid>/<32 hex>.w<width>.<format>". */
export const VARIANT_PATH_RE = /^([0-9a-f-]{36}\/[0-9a-f]{32})\.w(320|640|960)\.(avif|webp)$/;

/** The variant's stored path of a picture's stored base ("<owner>/<hex>"). */
export const variantPath = (base: string, width: VariantWidth, format: VariantFormat) => `${base}.w${width}.${format}`;

/** `srcset` per format for a picture's url, or null when it has no variants (no picture, an SVG, a GIF, elsewhere). */
export function pictureSources(url: string | null | undefined): Record<VariantFormat, string> | null {
  const base = url ? PICTURE_URL_RE.exec(url)?.[1] : undefined;
  if (!base) return null;
  const srcset = (format: VariantFormat) =>
    VARIANT_WIDTHS.map((w) => `/uploads/${variantPath(base, w, format)} ${w}w`).join(', ');
  return { avif: srcset('avif'), webp: srcset('webp') };
}

/** A variant's stored path taken apart, or null when the path is not one. */
export function parseVariantPath(path: string): { base: string; width: VariantWidth; format: VariantFormat } | null {
  const m = VARIANT_PATH_RE.exec(path);
  if (!m) return null;
  return { base: m[1]!, width: Number(m[2]) as VariantWidth, format: m[3] as VariantFormat };
}
