import { useNavigate } from 'react-router';
import { Heart } from '../../components/ui/icons.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { loginPath } from '../auth/index.ts';
import { favorites, useIsFavorite } from './use-favorites.ts';
import type { FavoriteType } from './store.ts';

export interface FavoriteButtonProps {
  id: string;
  type: FavoriteType;
  /** Show the words next to the heart (detail pages); cards show the heart only. */
  withText?: boolean;
  className?: string;
}

/** SPEC §2/§5: favouriting needs a signed-in person; a guest's click goes to /login and comes back. */
export function FavoriteButton({ id, type, withText = false, className }: FavoriteButtonProps) {
  const { user } = useShell();
  const navigate = useNavigate();
  const on = useIsFavorite({ id, type });
  const label = on ? 'Убрать из избранного' : 'В избранное';

  function onClick() {
    if (!user) {
      void navigate(loginPath(window.location.pathname + window.location.search));
      return;
    }
    void favorites.toggle({ id, type });
  }

  return (
    <button
      type="button"
      className={['fav-btn', withText ? 'fav-btn--text' : '', on ? 'fav-btn--on' : '', className].filter(Boolean).join(' ')}
      aria-pressed={on}
      aria-label={label}
      title={withText ? undefined : label}
      onClick={onClick}
    >
      <Heart size={withText ? 18 : 20} aria-hidden fill={on ? 'currentColor' : 'none'} />
      {withText && <span aria-hidden>{label}</span>}
    </button>
  );
}
