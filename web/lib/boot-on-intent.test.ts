import { describe, expect, it } from 'vitest';
import bootCode from 'virtual:boot-script';
import { bootOnIntent } from './boot-on-intent.ts';

// The server's side of a guest's reading page started on intent (docs/decisions/076): the document React Router
// rendered, with its modules made inert and their preloads handed to the boot script. What the browser then does
// with it is e2e/boot-on-intent.e2e.ts's.

const MODULES = `;\nimport * as route0 from "/assets/root-a.js";\nwindow.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-b.js");`;
const PRELOADS =
  '<link rel="preload" as="fetch" href="/catalogue/c.json" crossorigin="anonymous"/>' +
  '<link rel="modulepreload" href="/assets/entry.client-b.js" nonce="n1"/><link rel="modulepreload" href="/assets/root-a.js" nonce="n1"/>';
const HEAD = `<!DOCTYPE html><html lang="ru"><head><meta charSet="utf-8"/><title>Услуги &lt;link rel=&quot;modulepreload&quot;&gt;</title><link rel="stylesheet" href="/assets/index.css" data-precedence="default"/>${PRELOADS}<link rel="icon" href="/favicon.svg"/></head>`;
const BODY = `<body><main><p>&lt;script type=&quot;module&quot; async=&quot;&quot;&gt;</p></main><script nonce="n1">window.__reactRouterContext = {};</script><script nonce="n1" type="module" async="">${MODULES}</script><script nonce="n1">window.__reactRouterContext.streamController.close();</script></body></html>`;
const DOCUMENT = HEAD + BODY;

/** Every inline script's text as a kept page's CSP scan reads it: a tag ends at its first `>` (page-cache.ts). */
function inlineTexts(html: string): string[] {
  const texts: string[] = [];
  for (let at = html.indexOf('<script'); at >= 0; at = html.indexOf('<script', at + 1)) {
    const tagEnd = html.indexOf('>', at);
    texts.push(html.slice(tagEnd + 1, html.indexOf('</script>', tagEnd)));
  }
  return texts;
}

describe('bootOnIntent', () => {
  const boot = (html: string, nonce: string) => bootOnIntent(Buffer.from(html), nonce).toString();
  const page = boot(DOCUMENT, 'n1');

  it('takes the modules’ and the catalogue’s preloads out of the head and keeps every other tag', () => {
    const head = page.slice(0, page.indexOf('</head>'));
    expect(head).not.toContain('<link rel="modulepreload"');
    expect(head).not.toContain('<link rel="preload"');
    expect(head).toContain('<link rel="stylesheet" href="/assets/index.css" data-precedence="default"/>');
    expect(head).toContain('<link rel="icon" href="/favicon.svg"/>');
    // A title that spells a tag out is text: left as it is.
    expect(head).toContain('<title>Услуги &lt;link rel=&quot;modulepreload&quot;&gt;</title>');
  });

  it('makes React Router’s module script inert, with the same text, and puts the boot script after it', () => {
    expect(page).not.toMatch(/<script[^>]*type="module"/);
    expect(page).toContain(`<script nonce="n1" type="text/x-app-modules" id="app-modules">${MODULES}</script><script nonce="n1" data-boot="`);
    expect(page).toContain(`">${bootCode}</script><script nonce="n1">window.__reactRouterContext.streamController.close();</script></body>`);
    // The body's text that spells the module script's tag out is not touched.
    expect(page).toContain('<p>&lt;script type=&quot;module&quot; async=&quot;&quot;&gt;</p>');
  });

  it('hands the preloads to the boot script as they were, in an attribute the browser reads back', () => {
    const attribute = /data-boot="([^"]*)"/.exec(page)?.[1] ?? '';
    const decoded = attribute.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const config = JSON.parse(decoded) as { links: string; id: string; currency: string; currencyKey: string; referralParam: string };
    expect(config).toMatchObject({ links: PRELOADS, id: 'app-modules', currency: 'RUB', currencyKey: 'selectedCurrency', referralParam: 'referralCode' });
    // Chromium takes no nonce from a script with `<` in an attribute, even as an entity.
    expect(decoded).not.toMatch(/[<>]/);
    expect(attribute).not.toMatch(/[<>"]/);
  });

  it('lets a kept page’s CSP allow the modules once the boot script runs them: the same text, the same hash', () => {
    const texts = inlineTexts(page);
    expect(texts).toContain(MODULES);
    expect(texts).toContain(bootCode);
  });

  it('is minified, and the same text on every page (one CSP hash)', () => {
    expect(bootCode).toMatch(/^\(\(\)=>\{/);
    expect(bootCode.length).toBeLessThan(4000);
    expect(boot(DOCUMENT.replace('root-a', 'root-z'), 'n2')).toContain(`>${bootCode}</script>`);
  });

  it('leaves a document without React Router’s module script as it is', () => {
    const plain = DOCUMENT.replace(' type="module" async=""', '');
    expect(boot(plain, 'n1')).toBe(plain);
    expect(boot('<html><body>Ошибка</body></html>', 'n1')).toBe('<html><body>Ошибка</body></html>');
  });
});
