import { useLoaderData } from 'react-router';
import type { Route } from './+types/profile-bids';
import { pageMeta } from '../lib/meta.ts';
import { LIVE_KINDS, useRevalidateOn } from '../lib/live-refresh.ts';
import { loadMyBids, MyBids } from '../features/bids/index.ts';
import '../styles/bids.css';

// /profile/bids: a seller's own bids, or the bids a customer received (opening it clears the bids flag).

export function clientLoader({ url }: Route.ClientLoaderArgs) {
  return loadMyBids(url);
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Отклики</h1>
      <div className="skeleton" style={{ height: 40, marginBottom: 16 }} />
      <div className="skeleton" style={{ height: 320 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Отклики');

export default function ProfileBidsPage() {
  // A new bid, or one's acceptance, shows here without a reload.
  useRevalidateOn(LIVE_KINDS.bids);
  return <MyBids {...useLoaderData<typeof clientLoader>()} />;
}
