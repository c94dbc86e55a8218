// The two builds of Debian's Chromium the end-to-end tests run in (docs/decisions/088), with the Debian packages that
// install them. e2e/run.ts checks that both are there before the suite starts; e2e/fixtures.ts launches them.

/**
 * Debian's Chromium headless shell: the same build without the browser's own layer (profiles, extensions, UI), and
 * Playwright's own headless browser. The suite's default: a context and its page cost under a third of the CPU.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
/** Debian's Chromium, the browser a person uses: the money loop and the guest's at-load files run in it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Which of the two a file runs in; `E2E_BROWSER=chromium` runs the whole suite in the full browser. */
export type BrowserKind = 'headless-shell' | 'chromium';

export const BROWSERS: Record<BrowserKind, { path: string; debianPackage: string }> = {
  'headless-shell': { path: HEADLESS_SHELL_PATH, debianPackage: 'chromium-headless-shell' },
  chromium: { path: CHROMIUM_PATH, debianPackage: 'chromium' },
};

/** The path a file that asked for `kind` launches. */
export const browserPath = (kind: BrowserKind) =>
  BROWSERS[process.env.E2E_BROWSER === 'chromium' ? 'chromium' : kind].path;
