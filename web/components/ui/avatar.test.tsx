import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import BoringAvatar from 'boring-avatars';
import { Avatar, AVATAR_VARIANTS, DEFAULT_AVATAR_COLORS } from './avatar.tsx';
import { BeamAvatar } from './beam-avatar.tsx';

/** The HTML once every lazy part has loaded (the variants other than beam come with the package, on demand). */
async function settled(element: React.ReactElement) {
  const { prelude } = await prerenderToNodeStream(element);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

describe('Avatar', () => {
  it('is deterministic for a name and differs for another name', () => {
    const a1 = renderToStaticMarkup(<Avatar name="Иван Петров" />);
    const a2 = renderToStaticMarkup(<Avatar name="Иван Петров" />);
    const b = renderToStaticMarkup(<Avatar name="Мария Сидорова" />);
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
  });

  it('defaults to size 40 and the default palette', () => {
    const html = renderToStaticMarkup(<Avatar name="Иван" />);
    expect(html).toMatch(/<svg[^>]*width="40"/);
    expect(html).toMatch(/<svg[^>]*height="40"/);
    expect(DEFAULT_AVATAR_COLORS).toHaveLength(5);
    expect(DEFAULT_AVATAR_COLORS.some((c) => html.toLowerCase().includes(c.toLowerCase()))).toBe(true);
  });

  it('labels the generated avatar and hides the inner svg', () => {
    const html = renderToStaticMarkup(<Avatar name="Иван" />);
    expect(html).toMatch(/^<span[^>]*role="img"[^>]*aria-label="Иван"/);
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html).toContain('avatar--round');
  });

  it('supports size, square and every variant', () => {
    expect(renderToStaticMarkup(<Avatar name="x" size={64} />)).toMatch(/<svg[^>]*width="64"/);
    expect(renderToStaticMarkup(<Avatar name="x" square />)).toContain('avatar--square');
  });

  it('draws every variant', async () => {
    const outputs = await Promise.all(AVATAR_VARIANTS.map((variant) => settled(<Avatar name="Иван" variant={variant} />)));
    expect(outputs.every((html) => html.includes('<svg'))).toBe(true);
    expect(new Set(outputs).size).toBe(AVATAR_VARIANTS.length);
  });

  it('draws beam exactly as boring-avatars does', () => {
    for (const name of ['Иван Петров', 'Мария Сидорова', 'x', '?', 'Alexander Hamilton', 'ООО «Ромашка» 42']) {
      for (const square of [false, true]) {
        const props = { name, colors: [...DEFAULT_AVATAR_COLORS], size: 40, square };
        const ours = renderToStaticMarkup(<BeamAvatar {...props} />);
        expect(ours, `${name} ${square}`).toBe(renderToStaticMarkup(<BoringAvatar {...props} variant="beam" />));
      }
    }
  });

  it('renders an <img> when src is given', () => {
    const html = renderToStaticMarkup(<Avatar name="Иван" src="/uploads/a.png" size={48} />);
    expect(html).toMatch(/^<img/);
    expect(html).toContain('alt="Иван"');
    expect(html).toContain('src="/uploads/a.png"');
    expect(html).toContain('width="48"');
    expect(html).toContain('avatar--round');
    expect(renderToStaticMarkup(<Avatar name="Иван" src="/a.png" square />)).toContain('avatar--square');
    expect(renderToStaticMarkup(<Avatar name="Иван" src={null} />)).toMatch(/^<span/);
  });
});
