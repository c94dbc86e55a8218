import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type sanitizeHtml from 'sanitize-html';
import { BLOG_LIMITS, BLOG_MESSAGES } from '#contract/blog';
import { STORED_PATH_RE, UPLOADS_PREFIX } from '../../platform/files.ts';
import { projectRoot } from '../../paths.ts';

// A post's Markdown becomes HTML here, on the server, when it is saved (ADR 037): `marked` renders it (raw HTML in
// the Markdown passes through marked untouched), then `sanitize-html` keeps only an allow-list of tags, attributes
// and URL schemes. No hand-written sanitising: whatever the two libraries do not allow does not reach a page.

// marked's time grows faster than the text on some inputs (100,000 characters of `_a_a…` took seconds) and it
// recurses once per nested quote or list item (a few thousand overflowed the stack): it runs in a worker thread with
// a time limit, after a check of the nesting that names the problem to the admin (ADR 040).

/** The longest a post's Markdown may take to render; an ordinary long article takes a few tens of milliseconds. */
export const MARKDOWN_TIME_LIMIT_MS = 3_000;

/** A text the renderer refuses: its message is for the admin, next to the body field. */
export class MarkdownRefused extends Error {}

/** How many quotes and list items the deepest line opens at its start (`> > - 1. text`). A plain scan: linear. */
export function deepestNesting(source: string): number {
  let deepest = 0;
  for (const line of source.split('\n')) {
    let depth = 0;
    let at = 0;
    for (;;) {
      while (line[at] === ' ' || line[at] === '\t') at++;
      const char = line[at];
      let next = -1;
      if (char === '>') next = at + 1;
      else if (char === '-' || char === '*' || char === '+') next = at + 1;
      else {
        let digits = at;
        while (digits - at < 9 && line[digits]! >= '0' && line[digits]! <= '9') digits++;
        if (digits > at && (line[digits] === '.' || line[digits] === ')')) next = digits + 1;
      }
      // A list marker counts when a space or the line's end follows it (`**bold**`, `---` and `3.14` are text).
      if (next < 0 || (char !== '>' && next < line.length && line[next] !== ' ' && line[next] !== '\t')) break;
      depth++;
      at = next;
    }
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/** Found from the project's root: the same from the sources and from the server bundle (build/server-app/). */
const WORKER_FILE = path.join(projectRoot, 'server', 'modules', 'blog', 'markdown-worker.mjs');

let previous: Promise<unknown> = Promise.resolve();

/** marked's HTML of `source`, from a worker given MARKDOWN_TIME_LIMIT_MS; one render at a time. */
function parseInWorker(source: string): Promise<string> {
  const run = () =>
    new Promise<string>((resolve, reject) => {
      const worker = new Worker(WORKER_FILE, { workerData: source });
      // The limit is marked's own time: counted from the worker's start, a loaded machine's slow boot of a worker
      // would refuse any article.
      let timer: NodeJS.Timeout | undefined;
      worker.once('online', () => {
        timer = setTimeout(() => {
          reject(new MarkdownRefused(BLOG_MESSAGES.bodyComplex));
          void worker.terminate();
        }, MARKDOWN_TIME_LIMIT_MS);
      });
      worker.once('message', (html: string) => {
        clearTimeout(timer);
        resolve(html);
      });
      // A stack overflow on an input the nesting check let through, or any other failure of marked.
      worker.once('error', () => {
        clearTimeout(timer);
        reject(new MarkdownRefused(BLOG_MESSAGES.bodyComplex));
      });
    });
  const result = previous.then(run);
  previous = result.catch(() => undefined);
  return result;
}

/** Only our own picture uploads may be shown inside an article: no tracking pixels, no hot-linked images. */
const PICTURE_EXT = /\.(jpg|png|webp|gif)$/;
export function isOwnPicture(src: string | undefined): boolean {
  if (!src?.startsWith(UPLOADS_PREFIX)) return false;
  const stored = src.slice(UPLOADS_PREFIX.length);
  return STORED_PATH_RE.test(stored) && PICTURE_EXT.test(stored);
}

/** A link that leaves the site: absolute http(s). Relative links (/faq, #part) are ours. */
const isExternal = (href: string) => /^https?:/i.test(href);

const OPTIONS: sanitizeHtml.IOptions = {
  // The page's <h1> is the post's title: the article's headings start at <h2>.
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'blockquote',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'loading'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
  },
  allowedClasses: { code: [/^language-[\w+#-]{1,30}$/] },
  // No javascript:, data:, vbscript: or any other scheme; no //host (protocol-relative) addresses.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  // script, style, textarea and the like go with their text; any other unknown tag leaves its text.
  disallowedTagsMode: 'discard',
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const { href, title } = attribs;
      const kept: Record<string, string> = {};
      if (href !== undefined) kept.href = href;
      if (title !== undefined) kept.title = title;
      // Sent by the admin, read by guests: an outside link passes no reputation and no window.opener.
      if (href !== undefined && isExternal(href)) kept.rel = 'nofollow noopener ugc';
      return { tagName, attribs: kept };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
  },
  // An <img> whose src is not our upload is dropped whole (after its attributes were filtered).
  exclusiveFilter: (frame) => frame.tag === 'img' && !isOwnPicture(frame.attribs.src),
};

/**
 * The sanitiser alone: an allow-list, whatever HTML it is given. sanitize-html (with its HTML parser and postcss) loads
 * with the first post saved, not in every idle server (ADR 064).
 */
export async function sanitizeArticleHtml(html: string): Promise<string> {
  const { default: sanitize } = await import('sanitize-html');
  return sanitize(html, OPTIONS);
}

/** A post's Markdown as the HTML its page shows; MarkdownRefused when it is nested too deep or takes too long. */
export async function renderMarkdown(source: string): Promise<string> {
  if (deepestNesting(source) > BLOG_LIMITS.nesting) throw new MarkdownRefused(BLOG_MESSAGES.bodyDeep);
  return await sanitizeArticleHtml(await parseInWorker(source));
}
