import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { STORED_PATH_RE, UPLOADS_PREFIX } from '../../platform/files.ts';

// A post's Markdown becomes HTML here, on the server, when it is saved (ADR 037): `marked` renders it (raw HTML in
// the Markdown passes through marked untouched), then `sanitize-html` keeps only an allow-list of tags, attributes
// and URL schemes. No hand-written sanitising: whatever the two libraries do not allow does not reach a page.

const markdown = new Marked({ gfm: true, breaks: false, async: false });

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
  allowedTags: ['h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'ul', 'ol', 'li', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
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

/** The sanitiser alone: an allow-list, whatever HTML it is given. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** A post's Markdown as the HTML its page shows. */
export function renderMarkdown(source: string): string {
  return sanitizeArticleHtml(markdown.parse(source, { async: false }));
}
