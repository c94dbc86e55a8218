import { describe, expect, it } from 'vitest';
import { BLOG_LIMITS, BLOG_MESSAGES } from '#contract/blog';
import { deepestNesting, MARKDOWN_TIME_LIMIT_MS, renderMarkdown, sanitizeArticleHtml } from './markdown.ts';

// The blog's Markdown → HTML (ADR 037): what an admin writes reaches guests' pages only through this allow-list.

const UPLOAD = '/uploads/0b6e7a43-39d4-4d9b-9d1e-0a1b2c3d4e5f/0123456789abcdef0123456789abcdef.jpg';

/** Nothing in the output can run: no script element, no on* attribute, no script-capable URL, no style, no frame. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
  expect(html).not.toMatch(/<(iframe|object|embed|svg|math|style|form|input|base|meta|link)\b/i);
  expect(html).not.toMatch(/\sstyle\s*=/i);
  expect(html).not.toMatch(/\ssrcdoc\s*=/i);
}

describe('renderMarkdown', () => {
  it('refuses quotes and lists nested past the limit with a message, instead of overflowing the stack', async () => {
    for (const body of [
      '>'.repeat(1809) + ' x',
      '1. '.repeat(1184) + 'x',
      '- '.repeat(3000) + 'x',
      '> - '.repeat(BLOG_LIMITS.nesting),
    ]) {
      await expect(renderMarkdown(body), body.slice(0, 8)).rejects.toThrow(BLOG_MESSAGES.bodyDeep);
    }
    // Up to the limit, however it is written.
    expect(await renderMarkdown('> '.repeat(BLOG_LIMITS.nesting) + 'x')).toContain('<blockquote>');
    expect(deepestNesting('> - 1. x\n**жирный** --- 3.14 * * *\n---')).toBe(3);
  });

  it('gives up on a text marked takes too long over, within the time limit, and keeps the event loop free', async () => {
    const started = Date.now();
    let longestPause = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longestPause = Math.max(longestPause, Date.now() - last);
      last = Date.now();
    }, 10);
    try {
      await expect(renderMarkdown('_a'.repeat(BLOG_LIMITS.body.max / 2))).rejects.toThrow(BLOG_MESSAGES.bodyComplex);
    } finally {
      clearInterval(ticker);
    }
    // The limit, plus a worker's start (not counted in it).
    expect(Date.now() - started).toBeLessThan(MARKDOWN_TIME_LIMIT_MS + 2_000);
    expect(longestPause).toBeLessThan(500);
    // The next render gets a fresh worker.
    expect(await renderMarkdown('_курсив_')).toBe('<p><em>курсив</em></p>\n');
  }, 15_000);

  it('renders Markdown: headings (from h2: the page title is the h1), lists, emphasis, links, code, tables', async () => {
    const html = await renderMarkdown(
      '# Заголовок\n\n## Раздел\n\n- раз\n- два\n\n1. первый\n\n**жирный** и *курсив*, [ЧаВо](/faq)\n\n```js\nconst a = "<b>";\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h2>Заголовок</h2>');
    expect(html).toContain('<h2>Раздел</h2>');
    expect(html).not.toContain('<h1');
    expect(html).toMatch(/<ul>\s*<li>раз<\/li>\s*<li>два<\/li>\s*<\/ul>/);
    expect(html).toContain('<ol>');
    expect(html).toContain('<strong>жирный</strong>');
    expect(html).toContain('<em>курсив</em>');
    expect(html).toContain('<a href="/faq">ЧаВо</a>');
    expect(html).toContain('<code class="language-js">const a = "&lt;b&gt;";');
    expect(html).toContain('<table>');
  });

  it('drops raw HTML scripts with their text, event handlers and javascript:/data: links', async () => {
    const html = await renderMarkdown(
      [
        'Текст <script>window.__pwned=1</script> дальше',
        '<img src=x onerror="window.__pwned=2">',
        '[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](data:text/html;base64,PHNjcmlwdD4=) [w](vbscript:msgbox)',
        '<a href="&#106;avascript:alert(1)">entity</a> <a href="java\tscript:alert(1)">tab</a>',
        '<svg onload=alert(1)></svg><iframe src="https://evil.example"></iframe><object data="x"></object>',
        '<div style="background:url(javascript:alert(1))" onclick="alert(1)">div</div>',
        '<p onmouseover="alert(1)">p</p><details open ontoggle=alert(1)>d</details>',
        '<math><mi xlink:href="javascript:alert(1)">m</mi></math>',
        '<form action="javascript:alert(1)"><input autofocus onfocus=alert(1)></form>',
        '<style>body{display:none}</style><base href="https://evil.example/">',
        '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
        '[//evil](//evil.example/x)',
      ].join('\n\n'),
    );
    expectInert(html);
    expect(html).not.toContain('__pwned');
    expect(html).not.toContain('evil.example');
    expect(html).toContain('Текст');
    expect(html).toContain('дальше');
  });

  it('keeps images only when they are our uploads', async () => {
    const html = await renderMarkdown(
      `![своя](${UPLOAD})\n\n![чужая](https://tracker.example/pixel.png)\n\n<img src="/uploads/../etc/passwd">\n\n<img src="${UPLOAD}" onerror="alert(1)">`,
    );
    expect(html.match(/<img /g)).toHaveLength(2);
    expect(html).toContain(`<img src="${UPLOAD}" alt="своя" loading="lazy" />`);
    expect(html).not.toContain('tracker.example');
    expect(html).not.toContain('passwd');
    expectInert(html);
  });

  it('marks links that leave the site nofollow noopener ugc, and only those', async () => {
    const html = await renderMarkdown(
      '[внешняя](https://example.com/a) [своя](/projects) <a href="https://x.example" rel="opener" target="_blank">x</a>',
    );
    expect(html).toContain('<a href="https://example.com/a" rel="nofollow noopener ugc">внешняя</a>');
    expect(html).toContain('<a href="/projects">своя</a>');
    expect(html).toContain('<a href="https://x.example" rel="nofollow noopener ugc">x</a>');
    expect(html).not.toContain('target=');
  });

  it('escapes text that looks like markup', async () => {
    expect(await renderMarkdown('1 < 2 && "кавычки" > 0')).toBe('<p>1 &lt; 2 &amp;&amp; "кавычки" &gt; 0</p>\n');
  });
});

describe('sanitizeArticleHtml', () => {
  it('is an allow-list whatever HTML it is given', async () => {
    const html = await sanitizeArticleHtml(
      '<h1 id="x" class="y">t</h1><a href="javascript:alert(1)" onclick="x">a</a><video src="v"></video><table><tr><td onclick="1">c</td></tr></table>',
    );
    expect(html).toBe('<h2>t</h2><a>a</a><table><tr><td>c</td></tr></table>');
  });
});
