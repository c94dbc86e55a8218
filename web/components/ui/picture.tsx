import { preload } from 'react-dom';
import { pictureSources } from '#contract/image-variants';

type PictureProps = Omit<React.ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'loading' | 'fetchPriority'> & {
  src: string;
  /**
   * The page's main picture (its largest paint): fetched at once, first, and announced in <head> so that it is
   * requested before the page's scripts; every other picture loads when it nears the screen.
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
  if (!sources) {
    if (priority) preload(src, { as: 'image', fetchPriority: 'high' });
    return <img src={src} loading={loading} fetchPriority={fetchPriority} {...img} />;
  }
  if (priority) preload(src, { as: 'image', type: 'image/avif', imageSrcSet: sources.avif, imageSizes: sizes, fetchPriority: 'high' });
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img src={src} loading={loading} fetchPriority={fetchPriority} {...img} />
    </picture>
  );
}
