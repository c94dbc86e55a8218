import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer } from '../server/server.ts';
import { loadEnv } from '../server/env.ts';
import { openPglite } from '../server/db/client.ts';
import { pgliteTemplate } from '../server/test/database.ts';
import { createUser, type UserOverrides } from '../server/db/factories.ts';
import type { UserRow } from '../server/modules/users/schema.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { settings } from '../server/platform/schema.ts';
import { browserPath, type BrowserKind } from './browsers.ts';

export const BRAND = 'Подряд';
/** A normal desktop Chrome: the server treats "HeadlessChrome" as a crawler (bare 404s, no error screen). */
export const DESKTOP_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
/** Chrome on an Android phone, for the phone layouts (with `isMobile`). */
export const MOBILE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';
export const CRAWLER_USER_AGENT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const JWT_SECRET = 'e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz'; // 48 characters

// ---------------------------------------------------------------------------------------------
// Server

export interface TestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/** Boots the real production server in-process: in-memory PGlite, the built web app, a random port. */
export async function startTestServer(envOverrides: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'podryad-e2e-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    RATES_URL: '',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    DATA_DIR: dataDir,
    ...envOverrides,
  });
  const server = await startServer(env, pino({ level: 'silent' }), { database: await openPglite(undefined, pgliteTemplate()) });
  const port = (server.app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A confirmed user in the server's database and a token for them. */
export async function createUserAndToken(
  server: RunningServer,
  overrides: UserOverrides = {},
): Promise<{ user: UserRow; token: string }> {
  const user = await createUser(server.database.db, overrides);
  const token = await server.app.services.tokens.sign(user);
  return { user, token };
}

/** Signs a browser context in: the authToken cookie, as the login page would leave it. */
export async function signIn(context: BrowserContext, baseUrl: string, token: string) {
  await context.addCookies([{ name: AUTH_TOKEN_KEY, value: encodeURIComponent(token), url: `${baseUrl}/`, sameSite: 'Lax' }]);
}

// ---------------------------------------------------------------------------------------------
// Browser

/** Debian's Chromium headless shell, or its full browser when asked (e2e/browsers.ts). */
export function launchBrowser(kind: BrowserKind = 'headless-shell'): Promise<Browser> {
  return chromium.launch({
    executablePath: browserPath(kind),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface ContextOptions {
  baseURL?: string;
  viewport?: { width: number; height: number };
  userAgent?: string;
  /** Phone emulation: the page's meta viewport is honoured and touch events are on. */
  isMobile?: boolean;
}

export async function newContext(browser: Browser, opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent: opts.userAgent ?? DESKTOP_USER_AGENT,
    locale: 'ru-RU',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    baseURL: opts.baseURL,
    ...(opts.isMobile ? { isMobile: true, hasTouch: true } : {}),
  });
  // Lets `hydrated()` see when the app's effects have run: they register window listeners.
  await context.addInitScript(() => {
    const seen = new Set<string>();
    Object.defineProperty(window, '__e2eWindowListeners', { value: seen });
    const add = window.addEventListener;
    window.addEventListener = function (this: Window, type: string, ...rest: unknown[]) {
      seen.add(type);
      return (add as (...args: unknown[]) => void).call(this, type, ...rest);
    } as typeof window.addEventListener;
    // Lets `hydrated()` see when React has put the router's newest location on screen: the hook React calls after
    // each commit (React DevTools'), which notes the location once no update is left pending.
    type Router = { state: { location: { key: string } } };
    Object.defineProperty(window, '__e2eCommitted', { value: { key: null as string | null }, writable: false });
    Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      value: {
        supportsFiber: true,
        isDisabled: false,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => {},
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
        onCommitFiberRoot: (_id: number, root: { pendingLanes: number }) => {
          const w = window as unknown as { __reactRouterDataRouter?: Router; __e2eCommitted: { key: string | null } };
          if (root.pendingLanes === 0 && w.__reactRouterDataRouter) w.__e2eCommitted.key = w.__reactRouterDataRouter.state.location.key;
        },
      },
    });
  });
  return context;
}

/**
 * A service with two packages and two extras, for the checkout's flows: «Бизнес» with «Исходники» is 4 300 руб. and
 * 8 days (4 000 + 300, 7 + 1), the economy package (the one chosen at first) 2 000 руб. and 3 days.
 */
export const PACKAGED_SERVICE = {
  price: 200_000,
  days: 3,
  revisions: 1,
  packages: [
    { kind: 'economy' as const, price: 200_000, days: 3, revisions: 1, description: 'Логотип' },
    { kind: 'business' as const, price: 400_000, days: 7, revisions: 2, description: 'Логотип и фирменный стиль' },
  ],
  extras: [
    { title: 'Срочно', price: 50_000, days: 0 },
    { title: 'Исходники', price: 30_000, days: 1 },
  ],
};

/** The two screens a flow is checked at: a desktop and a 375 px phone. */
export const WIDTHS = [1280, 375] as const;
export type Width = (typeof WIDTHS)[number];
/**
 * The screens a whole flow runs at: its own, the phone for what guests and members do and the desktop for what admins
 * do (the suite's other tests run at 1280 px); both with `E2E_WIDTHS=both` (ADR 095).
 */
export const widthsFor = (own: Width): readonly Width[] => (process.env.E2E_WIDTHS === 'both' ? WIDTHS : [own]);
/** The browser options of a screen: the phone with its user agent and touch. */
export const device = (width: Width) =>
  width === 375 ? { viewport: { width: 375, height: 740 }, isMobile: true, userAgent: MOBILE_USER_AGENT } : { viewport: { width: 1280, height: 800 } };

/** A text with its runs of spaces (non-breaking and narrow ones too) made one space. */
export const norm = (s: string | null) => (s ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/**
 * Chrome logs every 404 response as a failed resource. A 404 page's own document and React Router's
 * data request for it (`….data`) are expected; any other missing resource (a chunk, a stylesheet) is not.
 */
function isExpected404(text: string, source: string, pageUrl: string): boolean {
  if (!/^Failed to load resource: the server responded with a status of 404/.test(text)) return false;
  const strip = (u: string) => u.split('#')[0];
  return strip(source) === strip(pageUrl) || new URL(source, pageUrl).pathname.endsWith('.data');
}

export interface PageProblems {
  pageErrors: string[];
  consoleErrors: string[];
}

/** Records uncaught page errors and console errors of a page (and of the pages it reloads into). */
export function watchPage(page: Page, problems: PageProblems = { pageErrors: [], consoleErrors: [] }): PageProblems {
  page.on('pageerror', (err) => problems.pageErrors.push(`${page.url()}: ${err.stack ?? err.message}`));
  // A blocked eval (even a caught one) is no console error, but Chromium reports it as an issue and Lighthouse's
  // best practices count it: every Content-Security-Policy issue is a problem. Audits.enable replays earlier ones.
  void page
    .context()
    .newCDPSession(page)
    .then(async (cdp) => {
      cdp.on('Audits.issueAdded', ({ issue }) => {
        if (issue.code === 'ContentSecurityPolicyIssue') problems.consoleErrors.push(`${page.url()}: CSP issue ${JSON.stringify(issue.details)}`);
      });
      await cdp.send('Audits.enable');
    })
    .catch(() => {}); // the page closed first
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    const source = msg.location().url;
    if (!isExpected404(text, source, page.url())) problems.consoleErrors.push(`${page.url()}: ${text}${source ? ` [${source}]` : ''}`);
  });
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Per-file harness

export interface OpenOptions extends ContextOptions {
  /** Sign the context in with this token first. */
  token?: string;
  /** Scripts to run before any page script, on every document (e.g. stubbing navigator APIs). */
  initScripts?: (() => void)[];
}

export interface Session {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
}

export interface E2E {
  readonly url: string;
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A fresh browser context with one page, closed (and checked for errors) after the test. */
  open(opts?: OpenOptions): Promise<Session>;
  user(overrides?: UserOverrides): Promise<{ user: UserRow; token: string }>;
  /** Console errors matching these are tolerated in the current test. */
  allowConsoleErrors(...patterns: RegExp[]): void;
}

/**
 * Wires a spec file: one server (with these env overrides) and one browser for the file (the headless shell unless
 * `browser` says otherwise), a fresh context per `open()`; after each test every page must have had no uncaught error
 * and no console error. Call at the top level of a file or inside a describe (each call boots its own server).
 */
export function useE2E(
  envOverrides: Record<string, string> = {},
  { browser: kind }: { browser?: BrowserKind } = {},
): E2E {
  let testServer: TestServer | undefined;
  let browser: Browser | undefined;
  let sessions: Session[] = [];
  let allowed: RegExp[] = [];

  beforeAll(async () => {
    [testServer, browser] = await Promise.all([startTestServer(envOverrides), launchBrowser(kind)]);
  });

  afterAll(async () => {
    await Promise.allSettled([browser?.close(), testServer?.close()]);
  });

  afterEach(async () => {
    const done = sessions;
    const tolerated = allowed;
    sessions = [];
    allowed = [];
    await Promise.allSettled(done.map((s) => s.context.close()));
    const pageErrors = done.flatMap((s) => s.problems.pageErrors);
    const consoleErrors = done.flatMap((s) => s.problems.consoleErrors).filter((e) => !tolerated.some((re) => re.test(e)));
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    expect(consoleErrors, 'console errors in the page').toEqual([]);
  });

  const harness: E2E = {
    get url() {
      if (!testServer) throw new Error('server not started yet');
      return testServer.url;
    },
    get server() {
      if (!testServer) throw new Error('server not started yet');
      return testServer.server;
    },
    get browser() {
      if (!browser) throw new Error('browser not launched yet');
      return browser;
    },
    async open(opts = {}) {
      const context = await newContext(harness.browser, { baseURL: harness.url, ...opts });
      if (opts.token) await signIn(context, harness.url, opts.token);
      for (const script of opts.initScripts ?? []) await context.addInitScript(script);
      // Every page of the context is watched, the first one and any opened later (a second tab).
      const problems: PageProblems = { pageErrors: [], consoleErrors: [] };
      context.on('page', (p) => void watchPage(p, problems));
      const page = await context.newPage();
      const session: Session = { context, page, problems };
      sessions.push(session);
      return session;
    },
    user: (overrides) => createUserAndToken(harness.server, overrides),
    allowConsoleErrors: (...patterns) => void allowed.push(...patterns),
  };
  return harness;
}

/** The operator's fallback rates (PRODUCT.md), as the admin settings store them: the currency list is on. */
export function useFallbackRates(e2e: E2E) {
  beforeAll(async () => {
    await e2e.server.database.db.insert(settings).values([
      { key: 'rates.fallbackUSDT', value: 95 },
      { key: 'rates.fallbackBTC', value: 9_000_000 },
    ]);
    e2e.server.app.services.settings.forget();
  });
}

// Page helpers (e2e/page-helpers.ts), imported from here like the rest.
export * from './page-helpers.ts';
export * from './checks.ts';
