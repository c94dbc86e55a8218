import { ImageIcon, Star } from '../../components/ui/icons.tsx';
import { SELLER_LEVEL_TITLES, type SellerLevel } from '#contract/catalog-constants';
import { Picture } from '../../components/ui/picture.tsx';
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

/** How wide a card's cover is drawn: the card grid's columns (app.css .card-grid). */
const CARD_SIZES = '(max-width: 480px) calc(100vw - 32px), (max-width: 900px) 45vw, 300px';

/**
 * A 4:3 cover: the picture, or a calm placeholder when the service has none. `eager`: the first card of a list,
 * on a phone the only one above the fold, is fetched at once and first; the others when they near the screen.
 */
export function Cover({ src, seed, eager = false, alt = '' }: { src: string | null | undefined; seed: string; eager?: boolean; alt?: string }) {
  if (src) {
    return (
      <Picture
        className="cover"
        src={src}
        sizes={CARD_SIZES}
        alt={alt}
        width={400}
        height={300}
        priority={eager}
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
