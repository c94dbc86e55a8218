import { Star } from '../../components/ui/icons.tsx';

/** A review's mark as five stars, the number said to screen readers. */
export function Stars({ rating, size = 16 }: { rating: number; size?: number }) {
  return (
    <span className="stars" role="img" aria-label={`Оценка ${rating} из 5`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star key={i} size={size} aria-hidden className={i <= rating ? 'stars__on' : 'stars__off'} fill={i <= rating ? 'currentColor' : 'none'} />
      ))}
    </span>
  );
}
