import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { storedValue, storeValue } from '../../platform/settings.ts';
import type { Rates } from '#contract/api';

const KEY = 'rates';
const READ_CACHE_MS = 30_000;
const FETCH_TIMEOUT_MS = 10_000;

interface StoredRates {
  USDT: number;
  BTC: number;
  lastUpdated: string;
}

/** The crypto-price service's simple-price answer: `{ bitcoin: { rub }, tether: { rub } }`. */
export function parseSimplePrice(body: unknown): { USDT: number; BTC: number } | null {
  const rub = (id: string) => {
    const entry = (body as Record<string, { rub?: unknown } | undefined> | null)?.[id];
    return typeof entry?.rub === 'number' && Number.isFinite(entry.rub) ? entry.rub : 0;
  };
  const USDT = rub('tether');
  const BTC = rub('bitcoin');
  // SPEC §5: accepted only when both are above 0.
  return USDT > 0 && BTC > 0 ? { USDT, BTC } : null;
}

export class RatesService {
  private cached: { at: number; value: Rates } | null = null;

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly log: Logger,
    /** The operator's fallback rates (settings), used while the service has given none. */
    private readonly fallback: () => Promise<{ USDT: number; BTC: number }> = async () => ({ USDT: 0, BTC: 0 }),
  ) {}

  async get(): Promise<Rates> {
    if (this.cached && Date.now() - this.cached.at < READ_CACHE_MS) return this.cached.value;
    const stored = (await storedValue(this.db, KEY)) as StoredRates | undefined;
    const fallback = stored ? null : await this.fallback();
    const value: Rates = stored
      ? { RUB: 1, USDT: stored.USDT, BTC: stored.BTC, lastUpdated: stored.lastUpdated }
      : fallback && fallback.USDT > 0 && fallback.BTC > 0
        ? { RUB: 1, USDT: fallback.USDT, BTC: fallback.BTC, lastUpdated: null }
        : { RUB: 1, USDT: 0, BTC: 0, lastUpdated: null };
    this.cached = { at: Date.now(), value };
    return value;
  }

  /** Whether the service's own rates are stored (an operator's fallback does not count: the boot still fetches). */
  async held(): Promise<boolean> {
    const stored = (await storedValue(this.db, KEY)) as StoredRates | undefined;
    return Boolean(stored && stored.USDT > 0 && stored.BTC > 0);
  }

  /** Fetches fresh rates; failures are logged and leave the held rates untouched (SPEC §8: silent). */
  async refresh(): Promise<boolean> {
    if (!this.url) return false;
    try {
      const res = await fetch(this.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`rates service answered ${res.status}`);
      const parsed = parseSimplePrice(await res.json());
      if (!parsed) throw new Error('rates service answered without positive USDT and BTC rates');
      const value: StoredRates = { ...parsed, lastUpdated: new Date().toISOString() };
      await storeValue(this.db, KEY, value);
      this.cached = null;
      return true;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'currency rates refresh failed');
      return false;
    }
  }
}
