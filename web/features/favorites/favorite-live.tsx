import { useEffect } from 'react';
import { HeartButton, takeHeldClick, type FavoriteButtonProps } from './favorite-button.tsx';
import { favorites, useIsFavorite } from './use-favorites.ts';

/** A signed-in person's heart, on the favourites store (favorite-button.tsx loads it lazily). */
export default function LiveFavoriteButton(props: FavoriteButtonProps) {
  const { id, type } = props;
  const on = useIsFavorite({ id, type });
  // A click on the placeholder heart before this code came (a page just loaded or just made live) counts.
  useEffect(() => {
    if (takeHeldClick(props)) void favorites.toggle({ id, type });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <HeartButton {...props} on={on} onClick={() => void favorites.toggle({ id, type })} />;
}
