import { AUTH_TOKEN_KEY, REMEMBER_ME_SECONDS, STORAGE_KEYS } from '#contract/constants';

// SPEC §3–§5: the token lives in the authToken cookie (7 days with remember-me, else the session)
// and in session storage; a stored token is used only while exp is in the future and nbf is not.

interface Claims {
  exp?: number;
  nbf?: number;
  sub?: string;
}

export function decodeClaims(token: string): Claims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Claims;
  } catch {
    return null;
  }
}

export function isTokenUsable(token: string | null | undefined, nowMs = Date.now()): token is string {
  if (!token) return false;
  const claims = decodeClaims(token);
  if (!claims || typeof claims.exp !== 'number') return false;
  const now = nowMs / 1000;
  return claims.exp > now && (claims.nbf === undefined || claims.nbf <= now);
}

export function readCookie(name: string, cookie: string): string | null {
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The bearer token: the cookie, else session storage; unusable tokens are discarded. */
export function getToken(): string | null {
  if (typeof document === 'undefined') return null;
  const token = readCookie(AUTH_TOKEN_KEY, document.cookie) ?? sessionStorage.getItem(STORAGE_KEYS.authToken);
  if (isTokenUsable(token)) return token;
  if (token) clearToken();
  return null;
}

const REMEMBER_KEY = 'authRemember';

/** Replaces the token (after a password change) keeping the persistence the user chose at sign-in. */
export function renewToken(token: string) {
  saveToken(token, localStorage.getItem(REMEMBER_KEY) === '1');
}

export function saveToken(token: string, remember: boolean) {
  localStorage.setItem(REMEMBER_KEY, remember ? '1' : '0');
  const maxAge = remember ? `; max-age=${REMEMBER_ME_SECONDS}` : '';
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}; path=/; samesite=lax${maxAge}${secure}`;
  sessionStorage.setItem(STORAGE_KEYS.authToken, token);
  localStorage.setItem(STORAGE_KEYS.isAuth, 'true');
}

export function clearToken() {
  document.cookie = `${AUTH_TOKEN_KEY}=; path=/; max-age=0; samesite=lax`;
  sessionStorage.removeItem(STORAGE_KEYS.authToken);
  localStorage.setItem(STORAGE_KEYS.isAuth, 'false');
}
