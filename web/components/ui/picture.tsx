import { pictureSources } from '#contract/image-variants';

type PictureProps = Omit<React.ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'loading' | 'fetchPriority'> & {
  src: string;
  /**
   * The page's main picture (its largest paint): fetched at once and first; every other picture loads when it
   * nears the screen. (react-dom's preload() would announce it in <head>, but costs 1.4 KiB of JS on every page.)
   */
  priority?: boolean;
};

/**
 * An uploaded picture offered as AVIF, then WebP, at the widths made at upload (ADR 022), the original as the
 * fallback; any other url is a plain <img>.
 */
export function Picture({ src, sizes, priority = false, ...img }: PictureProps) {
  const sources = pictureSources(src);
  const loading = priority ? 'eager' : 'lazy';
  const fetchPriority = priority ? 'high' : undefined;
  if (!sources) return <img src={src} loading={loading} fetchPriority={fetchPriority} {...img} />;
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img src={src} loading={loading} fetchPriority={fetchPriority} {...img} />
    </picture>
  );
}
