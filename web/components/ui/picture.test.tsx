import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { Picture } from './picture.tsx';

const upload = '/uploads/02ee88c9-814b-408d-8c39-ab020d94e99c/2ba6673cf5e6206535c07f82638030b2.jpg';
const page = (node: React.ReactNode) => renderToString(<html><head /><body>{node}</body></html>);

describe('Picture', () => {
  it('offers an upload as AVIF, then WebP, at every width, the original as the fallback, lazily', () => {
    const html = page(<Picture src={upload} sizes="300px" alt="Обложка" />);
    expect(html).toMatch(/<picture><source type="image\/avif" srcSet="[^"]+\.w320\.avif 320w, [^"]+\.w640\.avif 640w, [^"]+\.w960\.avif 960w" sizes="300px"\/>/);
    expect(html).toMatch(/<source type="image\/webp" srcSet="[^"]+\.w320\.webp 320w, [^"]+\.w640\.webp 640w, [^"]+\.w960\.webp 960w" sizes="300px"\/>/);
    expect(html).toMatch(/<img src="[^"]+\.jpg" loading="lazy" alt="Обложка"\/><\/picture>/);
    expect(html).not.toContain('rel="preload"');
  });

  it('a priority picture is eager and first in line', () => {
    const html = page(<Picture src={upload} sizes="100vw" alt="" priority />);
    expect(html).toMatch(/<img src="[^"]+\.jpg" loading="eager" fetchPriority="high"/);
  });

  it('anything else (an SVG, another site) is a plain <img>', () => {
    for (const src of ['/uploads/02ee88c9-814b-408d-8c39-ab020d94e99c/2ba6673cf5e6206535c07f82638030b2.svg', 'https://example.com/a.jpg']) {
      const html = page(<Picture src={src} alt="" />);
      expect(html).not.toContain('<picture');
      expect(html).toContain(`<img src="${src}" loading="lazy"`);
    }
  });
});
