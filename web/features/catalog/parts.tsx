import { ImageIcon, Star } from '../../components/ui/icons.tsx';
import { SELLER_LEVEL_TITLES, type SellerLevel } from '#contract/catalog-constants';
import { FORMS, count, formatRating, ratingText } from './texts.ts';

// Small pieces shared by the cards and the detail pages.

/** ★ 4,9 (12 отзывов) — or "Нет отзывов". */
export function Rating({ rating, reviews, className }: { rating: number; reviews: number; className?: string }) {
  if (reviews <= 0) return <span className={`rating rating--none ${className ?? ''}`}>{ratingText(rating, reviews)}</span>;
  return (
    <span className={`rating ${className ?? ''}`}>
      <Star size={15} aria-hidden className="rating__star" fill="currentColor" />
      <span className="visually-hidden">Рейтинг </span>
      <strong className="rating__value">{formatRating(rating)}</strong>
      <span className="rating__count">({count(reviews, FORMS.reviews)})</span>
    </span>
  );
}

export function LevelBadge({ level }: { level: SellerLevel }) {
  return <span className={`level level--${level}`}>{SELLER_LEVEL_TITLES[level] ?? SELLER_LEVEL_TITLES.new}</span>;
}

/** The green dot with "в сети" (screen readers hear the words; offline says nothing unless asked). */
export function OnlineStatus({ online, showOffline = false }: { online: boolean; showOffline?: boolean }) {
  if (!online && !showOffline) return null;
  return <span className={`online${online ? ' online--on' : ''}`}>{online ? 'в сети' : 'не в сети'}</span>;
}

/** Hue 0–359 from a string: the placeholder of a service without pictures has a colour of its own. */
export function hueOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 360;
  return h;
}

/** A 4:3 cover: the picture, or a calm placeholder when the service has none. */
export function Cover({ src, seed, eager = false, alt = '' }: { src: string | null | undefined; seed: string; eager?: boolean; alt?: string }) {
  if (src) {
    return (
      <img
        className="cover"
        src={src}
        alt={alt}
        width={400}
        height={300}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
    );
  }
  return (
    <div className="cover cover--empty" style={{ '--hue': hueOf(seed) } as React.CSSProperties} role={alt ? 'img' : undefined} aria-label={alt || undefined}>
      <ImageIcon size={36} aria-hidden />
    </div>
  );
}
