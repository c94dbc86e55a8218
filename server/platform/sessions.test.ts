import { describe, expect, it } from 'vitest';
import { coarseAddress, describeAgent } from './sessions.ts';

// What a session keeps of where and what it came from (ADR 055): the network, never the address; names, not the header.
describe('coarseAddress', () => {
  it('keeps an IPv4 address to its /24 and an IPv6 one to its /48', () => {
    expect(coarseAddress('203.0.113.77')).toBe('203.0.113.0/24');
    expect(coarseAddress('::ffff:198.51.100.200')).toBe('198.51.100.0/24');
    expect(coarseAddress('2001:db8:1234:5678::1')).toBe('2001:db8:1234::/48');
    expect(coarseAddress('2001:0DB8:0001:ffff:ffff:ffff:ffff:ffff')).toBe('2001:db8:1::/48');
    expect(coarseAddress('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(coarseAddress('::1')).toBe('0:0:0::/48');
    expect(coarseAddress('fe80::1%eth0')).toBe('fe80:0:0::/48');
  });

  it('answers null for what is not an address', () => {
    for (const junk of ['', null, undefined, 'localhost', '999.1.1.1', '1.2.3', '2001:db8:::1', '::ffff:999.0.0.1']) expect(coarseAddress(junk)).toBeNull();
  });
});

describe('describeAgent', () => {
  it('names the device, the OS and the browser, with the major version only', () => {
    expect(describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36')).toEqual({
      device: 'Компьютер',
      os: 'Windows 10',
      browser: 'Chrome 120',
      deviceKey: 'desktop||windows|chrome',
    });
    const phone = describeAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36');
    expect(phone.device).toMatch(/^Смартфон/);
    expect(phone.os).toMatch(/^Android 14/);
  });

  it('gives the same device key across browser updates, another for another browser', () => {
    const ua = (v: string) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:${v}) Gecko/20100101 Firefox/${v}`;
    expect(describeAgent(ua('120.0')).deviceKey).toBe(describeAgent(ua('121.0')).deviceKey);
    expect(describeAgent(ua('120.0')).deviceKey).not.toBe(describeAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15').deviceKey);
  });

  it('says it does not know rather than failing, on no header, junk or a huge one', () => {
    for (const junk of [null, '', 'curl/8.4.0', '\u0000\uD800', 'a'.repeat(100_000)]) {
      const d = describeAgent(junk);
      expect(d.device.length).toBeGreaterThan(0);
      expect(d.os.length).toBeLessThan(80);
      expect(d.browser.length).toBeLessThan(80);
    }
    expect(describeAgent(null)).toMatchObject({ device: 'Устройство', os: 'Неизвестная ОС', browser: 'Неизвестный браузер' });
  });
});
