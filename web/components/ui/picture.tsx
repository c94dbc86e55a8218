import { pictureSources } from '#contract/image-variants';

type PictureProps = Omit<React.ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet'> & { src: string };

/**
 * An uploaded picture offered as AVIF, then WebP, at the widths made at upload (ADR 022), the original as the
 * fallback; any other url is a plain <img>.
 */
export function Picture({ src, sizes, ...img }: PictureProps) {
  const sources = pictureSources(src);
  if (!sources) return <img src={src} {...img} />;
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img src={src} {...img} />
    </picture>
  );
}
