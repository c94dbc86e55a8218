// SPEC §9 business constants, shared by the server and the web app.

export const DEFAULT_CURRENCY = 'RUB';
export const CURRENCIES = ['RUB', 'USDT', 'BTC'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const LOCALE = 'ru-RU';

/** Token cookie lifetime with remember-me: 7 days. */
export const REMEMBER_ME_SECONDS = 604_800;
export const AUTH_TOKEN_KEY = 'authToken';

export const TOAST_DURATION_MS = 3000;
export const TOAST_CLOSE_ANIMATION_MS = 300;
export const PROGRESS_TICK_MS = 500;

/** HTTP retry: once by default, GET only, on these statuses. */
export const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
export const GET_RETRY_COUNT = 1;

export const RELOAD_GUARD_MS = 10_000;
export const MESSAGE_PAGE_SIZE = 20;
export const RATES_REFRESH_MS = 3_600_000;

export const SOCKET_RECONNECT_DELAY_MS = 1000;
export const SOCKET_RECONNECT_DELAY_MAX_MS = 5000;
export const SOCKET_RANDOMIZATION = 0.5;
export const SOCKET_CONNECT_TIMEOUT_MS = 20_000;

export const CHART_TRANSITION_POINT_LIMIT = 50;
export const CHART_RESIZE_DEBOUNCE_MS = 150;

/** How often the client asks builds/latest.json for a new version (SPEC leaves it open). */
export const VERSION_CHECK_MS = 5 * 60_000;

/** Keys of locally kept preferences (SPEC §3). */
export const STORAGE_KEYS = {
  selectedCurrency: 'selectedCurrency',
  favorites: 'favorites',
  referralCode: 'referralCode',
  authToken: AUTH_TOKEN_KEY,
  isAuth: 'isAuth',
  reloadedAt: 'reloadedAt',
} as const;
