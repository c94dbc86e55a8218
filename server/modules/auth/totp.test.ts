import { describe, expect, it } from 'vitest';
import { codeAt, codeStep, enrolment, newRecoveryCodes, newSecret, recoveryCodeOf, recoveryHash } from './totp.ts';

// RFC 6238's parameters and the window (ADR 054): a code of the step before or after is accepted, with its own step
// (for the replay check), one further away is not.
describe('TOTP', () => {
  const secret = newSecret();
  const now = Date.UTC(2026, 10, 24, 12, 0, 10);
  const step = Math.floor(now / 30_000);

  it('accepts the code of the current step and of each neighbour, answering that step', () => {
    expect(codeStep(secret, codeAt(secret, now), now)).toBe(step);
    expect(codeStep(secret, codeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(codeStep(secret, codeAt(secret, now + 30_000), now)).toBe(step + 1);
  });

  it('refuses a code two steps away, another secret\u2019s code, and anything but six digits', () => {
    const old = codeAt(secret, now - 60_000);
    if (![codeAt(secret, now), codeAt(secret, now - 30_000), codeAt(secret, now + 30_000)].includes(old)) expect(codeStep(secret, old, now)).toBeNull();
    const other = newSecret();
    const theirs = codeAt(other, now);
    if (![-1, 0, 1].some((d) => codeAt(secret, now + d * 30_000) === theirs)) expect(codeStep(secret, theirs, now)).toBeNull();
    for (const junk of ['', '12345', '1234567', 'abcdef', ' 123456']) expect(codeStep(secret, junk, now)).toBeNull();
  });

  it('gives apps a standard otpauth link and a QR code of it', () => {
    const { uri, qrSvg } = enrolment(secret, 'Подряд', 'anna@example.com');
    const url = new URL(uri);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Подряд');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(qrSvg.startsWith('<svg')).toBe(true);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of 80 bits, read back whatever the case and separators', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const plain = codes[0]!.replaceAll('-', '');
    expect(recoveryCodeOf(codes[0]!.toUpperCase().replaceAll('-', ' '))).toBe(plain);
    expect(recoveryCodeOf('123456')).toBeNull();
    expect(recoveryCodeOf(`${plain}a`)).toBeNull();
    expect(recoveryHash(plain)).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryHash(plain)).not.toBe(recoveryHash(codes[1]!.replaceAll('-', '')));
  });
});
