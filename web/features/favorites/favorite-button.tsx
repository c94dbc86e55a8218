import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Heart } from '../../components/ui/icons.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { loginPath } from '../../lib/safe-target.ts';
import { createStore, useStore, type ReadableStore } from '../../lib/store.ts';
import { hasFavorite, type FavoriteItem, type FavoriteType } from './store.ts';
import type * as LiveModule from './use-favorites.ts';

// A signed-in person's heart reads and changes the favourites store (the list, its sync with the account, the API):
// that code is loaded for them only. A guest's heart is never on and leads to sign-in (issue 11).
type Live = typeof LiveModule;
let live: Live | undefined;
let loading: Promise<Live> | undefined;
const loadLive = () =>
  (loading ??= import('./use-favorites.ts').then(
    (module) => (live = module),
    (error: unknown) => {
      loading = undefined; // A failed fetch is tried again by the next heart or click.
      throw error;
    },
  ));

/** The list before the store's code came: nothing is a favourite yet. */
const NONE: ReadableStore<readonly FavoriteItem[]> = createStore<readonly FavoriteItem[]>(Object.freeze([]));

export interface FavoriteButtonProps {
  id: string;
  type: FavoriteType;
  /** Show the words next to the heart (detail pages); cards show the heart only. */
  withText?: boolean;
  className?: string;
}

/** SPEC §2/§5: favouriting needs a signed-in person; a guest's click goes to /login and comes back. */
export function FavoriteButton(props: FavoriteButtonProps) {
  const { user } = useShell();
  const navigate = useNavigate();
  if (user) return <SignedInHeart {...props} userId={user._id} />;
  return (
    <HeartButton {...props} on={false} onClick={() => void navigate(loginPath(window.location.pathname + window.location.search, 'favorite'))} />
  );
}

/**
 * A signed-in person's heart: the same button before and after the store's code comes, so that a press that began
 * before it and ends after it is still one click (a button replaced meanwhile would take neither); a click before
 * the code is made once it is there.
 */
function SignedInHeart({ userId, ...props }: FavoriteButtonProps & { userId: string }) {
  const { id, type } = props;
  const [code, setCode] = useState(live);
  const held = useRef(false);
  const on = hasFavorite(useStore(code?.favorites ?? NONE), { id, type });
  useEffect(() => {
    if (!code) {
      loadLive().then(setCode, () => {});
      return;
    }
    void code.favorites.connect(userId);
    if (held.current) {
      held.current = false;
      void code.favorites.toggle({ id, type });
    }
  }, [code, userId, id, type]);
  const onClick = () => {
    if (code) {
      void code.favorites.toggle({ id, type });
      return;
    }
    held.current = true;
    loadLive().then(setCode, () => {});
  };
  return <HeartButton {...props} on={on} onClick={onClick} />;
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
