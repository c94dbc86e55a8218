import { Suspense, lazy } from 'react';
import { useNavigate } from 'react-router';
import { Heart } from '../../components/ui/icons.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { loginPath } from '../../lib/safe-target.ts';
import type { FavoriteType } from './store.ts';

// A signed-in person's heart reads and changes the favourites store (the list, its sync with the account, the API):
// that code is loaded for them only. A guest's heart is never on and leads to sign-in (issue 11).
const LiveFavoriteButton = lazy(() => import('./favorite-live.tsx'));

export interface FavoriteButtonProps {
  id: string;
  type: FavoriteType;
  /** Show the words next to the heart (detail pages); cards show the heart only. */
  withText?: boolean;
  className?: string;
}

/** A signed-in person's click on a heart whose code had not come yet (its fallback): made once it is there. */
let held: string | null = null;
const key = (props: FavoriteButtonProps) => `${props.type}:${props.id}`;

/** True (once) when this heart was clicked before its live code came. */
export function takeHeldClick(props: FavoriteButtonProps): boolean {
  if (held !== key(props)) return false;
  held = null;
  return true;
}

/** SPEC §2/§5: favouriting needs a signed-in person; a guest's click goes to /login and comes back. */
export function FavoriteButton(props: FavoriteButtonProps) {
  const { user } = useShell();
  const navigate = useNavigate();
  if (user) {
    return (
      <Suspense fallback={<HeartButton {...props} on={false} onClick={() => void (held = key(props))} />}>
        <LiveFavoriteButton {...props} />
      </Suspense>
    );
  }
  return (
    <HeartButton {...props} on={false} onClick={() => void navigate(loginPath(window.location.pathname + window.location.search, 'favorite'))} />
  );
}

/** The heart itself: pressed when the item is a favourite. */
export function HeartButton({
  withText = false,
  className,
  on,
  onClick,
}: FavoriteButtonProps & { on: boolean; onClick?: () => void }) {
  const label = on ? 'Убрать из избранного' : 'В избранное';
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
