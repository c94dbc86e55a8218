import { HeartButton, type FavoriteButtonProps } from './favorite-button.tsx';
import { favorites, useIsFavorite } from './use-favorites.ts';

/** A signed-in person's heart, on the favourites store (favorite-button.tsx loads it lazily). */
export default function LiveFavoriteButton(props: FavoriteButtonProps) {
  const { id, type } = props;
  const on = useIsFavorite({ id, type });
  return <HeartButton {...props} on={on} onClick={() => void favorites.toggle({ id, type })} />;
}
