import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isbot } from 'isbot';
import { PAGE_PATH_MAX_SEGMENTS, PAGE_URL_MAX_LENGTH, isCrawler, overlongPageUrl, pageCacheControl, pageRequest, withoutUnreadParams } from './web-handler.ts';

describe('pageCacheControl', () => {
  it('keeps every page rendered for a signed-in user out of caches', () => {
    expect(pageCacheControl('/', true)).toBe('private, no-store');
    expect(pageCacheControl('/services/design/1', true)).toBe('private, no-store');
  });

  it('keeps the profile and admin areas, pages and data requests, out of caches for anyone', () => {
    for (const path of [
      '/profile',
      '/profile/items',
      '/profile.data',
      '/profile/items.data',
      '/admin',
      '/admin/users/1',
    ]) {
      expect(pageCacheControl(path, false), path).toBe('private, no-store');
    }
  });

  it('leaves public pages for guests to React Router', () => {
    for (const path of ['/', '/services', '/projects/design/1', '/_root.data', '/profiles', '/administration']) {
      expect(pageCacheControl(path, false), path).toBeNull();
    }
  });
});

describe('overlongPageUrl (ADR 040)', () => {
  it('takes an address up to the bounds, query included', () => {
    expect(overlongPageUrl('/')).toBe(false);
    expect(overlongPageUrl('/profile/items/1/edit?tab=x')).toBe(false);
    expect(overlongPageUrl('/a'.repeat(PAGE_PATH_MAX_SEGMENTS))).toBe(false);
    expect(overlongPageUrl('/' + 'a'.repeat(PAGE_URL_MAX_LENGTH - 1))).toBe(false);
  });

  it('refuses more segments, encoded slashes counted, or a longer address', () => {
    expect(overlongPageUrl('/a'.repeat(PAGE_PATH_MAX_SEGMENTS + 1))).toBe(true);
    expect(overlongPageUrl('/a' + '%2Fa'.repeat(PAGE_PATH_MAX_SEGMENTS))).toBe(true);
    expect(overlongPageUrl('/' + 'a'.repeat(PAGE_URL_MAX_LENGTH))).toBe(true);
    expect(overlongPageUrl('/services?q=' + 'a'.repeat(PAGE_URL_MAX_LENGTH))).toBe(true);
  });
});

describe('withoutUnreadParams', () => {
  it('drops ad click ids, campaign tags and the referral code, keeping the rest as it came and in its order', () => {
    expect(withoutUnreadParams('/?utm_source=yandex&utm_medium=cpc&yclid=123')).toBe('/');
    expect(withoutUnreadParams('/services/all?gclid=x&sort=price_asc&utm_campaign=a%20b&price_min=100')).toBe(
      '/services/all?sort=price_asc&price_min=100',
    );
    expect(withoutUnreadParams('/projects?ysclid=lq1&_openstat=dGVzdA&fbclid=f&msclkid=m&referralCode=ABC')).toBe('/projects');
    expect(withoutUnreadParams('/services/design/1?utm_content&q=%D0%BB%D0%BE%D0%B3%D0%BE&&')).toBe('/services/design/1?q=%D0%BB%D0%BE%D0%B3%D0%BE');
  });

  it('leaves an address with none of them as it is, to the byte', () => {
    for (const url of ['/', '/?', '/services?sort=new&&page=2', '/login?from=%2Fprofile', '/unsubscribe?token=a.b.c', '/?utm=1&xutm_source=2&UTM_SOURCE=3']) {
      expect(withoutUnreadParams(url), url).toBe(url);
    }
  });
});

describe('isCrawler', () => {
  it("answers as isbot does, for browsers, crawlers, nothing and overlong strings, asked again or not", () => {
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
    const crawler = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
    for (const ua of [browser, crawler, undefined, '', `${browser} ${'x'.repeat(600)}`, `${crawler} ${'x'.repeat(600)}`]) {
      expect(isCrawler(ua)).toBe(isbot(ua));
      expect(isCrawler(ua)).toBe(isbot(ua));
    }
    expect(isCrawler(crawler)).toBe(true);
    expect(isCrawler(browser)).toBe(false);
    // Many distinct strings: still right after the kept verdicts were forgotten.
    for (let i = 0; i < 2_100; i++) expect(isCrawler(`${i % 2 ? browser : crawler} #${i}`)).toBe(i % 2 === 0);
  });
});

describe('pageRequest', () => {
  type Fake = Parameters<typeof pageRequest>;
  const fake = (url: string, rawHeaders: string[]) => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: false });
    const request = { protocol: 'https', host: 'podryad.example', url, method: 'GET', raw: { rawHeaders } } as unknown as Fake[0];
    return { request, reply: { raw } as unknown as Fake[1], raw };
  };

  it('carries the address, the method and every header, repeated ones too', () => {
    const { request, reply } = fake('/services?q=%D0%BB%D0%BE%D0%B3%D0%BE', ['Host', 'podryad.example', 'Cookie', 'a=1', 'Accept-Language', 'ru', 'X-Many', '1', 'X-Many', '2']);
    const built = pageRequest(request, reply);
    expect(built.url).toBe('https://podryad.example/services?q=%D0%BB%D0%BE%D0%B3%D0%BE');
    expect(built.method).toBe('GET');
    expect(built.headers.get('cookie')).toBe('a=1');
    expect(built.headers.get('accept-language')).toBe('ru');
    expect(built.headers.get('x-many')).toBe('1, 2');
  });

  it('is aborted when the client goes away before the answer has left, not after', () => {
    const gone = fake('/', []);
    const early = pageRequest(gone.request, gone.reply);
    gone.raw.emit('close');
    expect(early.signal.aborted).toBe(true);

    const served = fake('/', []);
    const finished = pageRequest(served.request, served.reply);
    served.raw.writableFinished = true;
    served.raw.emit('close');
    expect(finished.signal.aborted).toBe(false);
  });
});
