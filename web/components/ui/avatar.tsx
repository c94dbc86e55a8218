import { Suspense, lazy, useState } from 'react';
import { BeamAvatar } from './beam-avatar.tsx';

// The default "beam" is our own copy (beam-avatar.tsx); the package draws the other variants, loaded when one is shown.
const BoringAvatar = lazy(() => import('boring-avatars'));

export const AVATAR_VARIANTS = ['bauhaus', 'beam', 'marble', 'pixel', 'ring', 'sunset'] as const;
export type AvatarVariant = (typeof AVATAR_VARIANTS)[number];

/** Palette matching the blue accent. */
export const DEFAULT_AVATAR_COLORS: readonly string[] = ['#2563eb', '#60a5fa', '#f59e0b', '#10b981', '#f43f5e'];
export const DEFAULT_AVATAR_SIZE = 40;
export const DEFAULT_AVATAR_VARIANT: AvatarVariant = 'beam';

export function isAvatarVariant(x: unknown): x is AvatarVariant {
  return typeof x === 'string' && (AVATAR_VARIANTS as readonly string[]).includes(x);
}

export interface AvatarProps {
  /** Display name; the generated picture is derived from it deterministically. */
  name: string;
  /** Uploaded picture URL; when set, an <img> is shown instead (falls back to the generated one on error). */
  src?: string | null;
  variant?: AvatarVariant;
  size?: number;
  square?: boolean;
  colors?: readonly string[];
  className?: string;
}

export function Avatar({
  name,
  src,
  variant = DEFAULT_AVATAR_VARIANT,
  size = DEFAULT_AVATAR_SIZE,
  square = false,
  colors = DEFAULT_AVATAR_COLORS,
  className,
}: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = ['avatar', square ? 'avatar--square' : 'avatar--round', className].filter(Boolean).join(' ');

  if (src && src !== failedSrc) {
    return (
      <img
        className={`${classes} avatar--img`}
        src={src}
        alt={name}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailedSrc(src)}
      />
    );
  }

  return (
    <span className={classes} role="img" aria-label={name} style={{ width: size, height: size }}>
      {!isAvatarVariant(variant) || variant === 'beam' ? (
        <BeamAvatar name={name.trim() || '?'} colors={colors} size={size} square={square} aria-hidden="true" focusable="false" />
      ) : (
        <Suspense fallback={null}>
          <BoringAvatar
            name={name.trim() || '?'}
            variant={variant}
            colors={[...colors]}
            size={size}
            square={square}
            aria-hidden="true"
            focusable="false"
          />
        </Suspense>
      )}
    </span>
  );
}
