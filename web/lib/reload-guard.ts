import { RELOAD_GUARD_MS, STORAGE_KEYS, VERSION_CHECK_MS } from '#contract/constants';

/** The subset of Storage used here (sessionStorage in the browser, a fake in tests). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** sessionStorage, or null outside the browser (SSR) or when the browser blocks storage access. */
export function getSessionStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' || typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function defaultReload(): void {
  if (typeof location !== 'undefined') location.reload();
}

/**
 * Reloads the page unless it was already reloaded by this guard during the last RELOAD_GUARD_MS (10 s).
 * The time of the reload is kept under STORAGE_KEYS.reloadedAt, which prevents reload loops.
 * Without usable storage it does not reload (a loop is worse than a stale page).
 * Returns whether it reloaded.
 */
export function reloadOnce(
  reason: string,
  storage: StorageLike | null = getSessionStorage(),
  now: number = Date.now(),
  reload: () => void = defaultReload,
): boolean {
  if (!storage) return false;
  try {
    const raw = storage.getItem(STORAGE_KEYS.reloadedAt);
    const last = raw === null ? Number.NaN : Number(raw);
    if (Number.isFinite(last)) {
      const age = now - last;
      if (age >= 0 && age < RELOAD_GUARD_MS) return false;
    }
    storage.setItem(STORAGE_KEYS.reloadedAt, String(now));
  } catch {
    return false;
  }
  console.info(`[reload-guard] reloading: ${reason}`);
  reload();
  return true;
}

const CHUNK_ERROR_RE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError/i;

/** True for errors caused by a missing / unreachable code chunk (typically after a new deploy). */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error === 'string') return CHUNK_ERROR_RE.test(error);
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return typeof message === 'string' && CHUNK_ERROR_RE.test(message);
}

export interface VersionCheckOptions {
  /** Returns the latest build id (e.g. from builds/latest.json); null or a rejection is ignored. */
  fetchLatest: () => Promise<{ id: string } | null>;
  /** Poll interval, default VERSION_CHECK_MS (5 min). */
  intervalMs?: number;
  /** Called once, when a build id different from `currentId` is seen; polling then stops. */
  onNewVersion: () => void;
}

/**
 * Polls fetchLatest() every intervalMs (first check after one interval; checks never overlap).
 * Returns a stop function.
 */
export function startVersionCheck(currentId: string, opts: VersionCheckOptions): () => void {
  const intervalMs = opts.intervalMs ?? VERSION_CHECK_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    if (!stopped) timer = setTimeout(check, intervalMs);
  };

  const check = async () => {
    timer = undefined;
    // A failed check is silent: the next one tries again.
    const latest = await opts.fetchLatest().catch(() => null);
    if (stopped) return;
    if (latest && typeof latest.id === 'string' && latest.id !== '' && latest.id !== currentId) {
      stopped = true;
      opts.onNewVersion();
      return;
    }
    schedule();
  };

  schedule();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
