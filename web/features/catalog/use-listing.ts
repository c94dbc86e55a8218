import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { toast } from '../../lib/toast-store.ts';
import { filtersToSearch, type ListingFilters, type ListingKind } from './filters.ts';
import { fetchListing, isListingPath, listingStore, type ListingData } from './listing-data.ts';

/** The results' anchor: the filters' form (with or without scripts) brings them into view once applied (issue 15). */
export const RESULTS_ID = 'listing-results';

/** Kept state: the listing as it is now, and where the page is scrolled, for the next visit. */
function useKeptListing(kind: ListingKind, data: ListingData, list: Pick<ListingData, 'items' | 'total' | 'exact' | 'next'>) {
  const live = useRef(true);
  useLayoutEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  useEffect(() => {
    if (data.restored) window.scrollTo(0, data.restored.scrollY);
  }, [data]);
  useEffect(() => {
    const { restored: _restored, ...rest } = data;
    listingStore.set(kind, { ...rest, ...list, scrollY: window.scrollY, stale: false });
  }, [kind, data, list]);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (live.current) listingStore.patch(kind, data.path, { scrollY: window.scrollY });
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [kind, data.path]);
}

/** The state of a listing page: its loaded pages, the filters being applied, loading and "Показать ещё". */
export function useListing(kind: ListingKind, data: ListingData) {
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();

  // The loaded pages: the loader's first page (or the kept ones), then what "Показать ещё" adds.
  const [list, setList] = useState(() => ({ items: data.items, total: data.total, exact: data.exact, next: data.next }));
  const [pending, setPending] = useState<ListingFilters | null>(null);
  const [seen, setSeen] = useState(data);
  if (seen !== data) {
    setSeen(data);
    setList({ items: data.items, total: data.total, exact: data.exact, next: data.next });
    setPending(null);
  }
  const [loadingMore, setLoadingMore] = useState(false);

  const filters = pending ?? data.filters;
  const loading =
    (navigation.state === 'loading' && !!navigation.location && isListingPath(kind, navigation.location.pathname)) ||
    (pending !== null && navigation.state !== 'idle');

  useKeptListing(kind, data, list);

  // «Применить» brings the results into view once they have come (issue 15: at 1280×800 the filters reach below the
  // fold). After React Router's scroll restoration, which keeps the listing's position.
  const reveal = useRef(false);
  useEffect(() => {
    if (!reveal.current) return;
    reveal.current = false;
    const results = document.getElementById(RESULTS_ID);
    const top = results?.getBoundingClientRect().top ?? 0;
    if (top < 0 || top > window.innerHeight / 2) results?.scrollIntoView({ block: 'start' });
  }, [data]);

  /** New filters: remembered at once (kept state), then loaded through the address (shareable, crawlable). */
  function apply(next: ListingFilters, revealResults = false) {
    reveal.current = revealResults;
    const search = filtersToSearch(next, kind);
    const { restored: _restored, ...rest } = data;
    listingStore.set(kind, { ...rest, ...list, filters: next, search, scrollY: window.scrollY, stale: true });
    setPending(next);
    void navigate({ pathname: location.pathname, search }, { replace: true, preventScrollReset: true });
  }

  // The listing on screen now, for answers that arrive after the filters changed.
  const shown = useRef(data);
  useEffect(() => {
    shown.current = data;
  }, [data]);

  async function loadMore() {
    if (!list.next || loadingMore) return;
    const origin = data;
    setLoadingMore(true);
    const page = await fetchListing(kind, data.category?.slug, data.filters, list.next);
    setLoadingMore(false);
    if (shown.current !== origin) return;
    if (page.error) {
      toast(page.error);
      return;
    }
    setList((current) => ({
      items: [...current.items, ...page.items.filter((x) => !current.items.some((y) => y._id === x._id))],
      total: page.total || current.total,
      exact: page.total ? page.exact : current.exact,
      next: page.next,
    }));
  }

  return { list, filters, loading, loadingMore, apply, loadMore };
}
