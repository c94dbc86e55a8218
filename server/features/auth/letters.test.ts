import { describe, expect, it } from 'vitest';
import {
  CONFIRM_TOKEN_TTL_MS,
  RESET_TOKEN_TTL_MS,
  confirmationLetter,
  emailChangeLetter,
  passwordResetLetter,
} from './letters.ts';

const link = 'https://podryad.example/auth/confirm?token=abc123&next=%2F';
const params = { brand: 'Подряд', name: 'Алёна', link };

describe('auth letters', () => {
  it('export the link lifetimes', () => {
    expect(CONFIRM_TOKEN_TTL_MS).toBe(24 * 60 * 60 * 1000);
    expect(RESET_TOKEN_TTL_MS).toBe(60 * 60 * 1000);
  });

  it('put the brand into the subjects', () => {
    expect(confirmationLetter(params).subject).toBe('Подтвердите email на Подряд');
    expect(passwordResetLetter(params).subject).toBe('Восстановление пароля на Подряд');
    expect(emailChangeLetter({ ...params, brand: 'Биржа' }).subject).toBe('Подтвердите новый email на Биржа');
  });

  it('carry the link in the text and (escaped) in the html', () => {
    for (const letter of [confirmationLetter(params), passwordResetLetter(params), emailChangeLetter(params)]) {
      expect(letter.text).toContain(link);
      expect(letter.text).toContain('Алёна');
      expect(letter.html).toContain(`href="${link.replace('&', '&amp;')}"`);
      expect(letter.html).not.toContain(link); // the raw & never reaches the html
      expect(letter.html).toMatch(/^<!doctype html>/);
      expect(letter.html).not.toMatch(/<table/i);
    }
  });

  it('state how long the link works', () => {
    expect(confirmationLetter(params).text).toContain('24 часа');
    expect(emailChangeLetter(params).text).toContain('24 часа');
    const reset = passwordResetLetter(params);
    expect(reset.text).toContain('1 час');
    expect(reset.text).toContain('просто проигнорируйте письмо');
    expect(reset.html).toContain('просто проигнорируйте письмо');
  });

  it('escape every interpolated value in the html', () => {
    const evil = { brand: 'Б&<b>ренд</b>', name: '<script>alert("x")</script>', link: 'https://x.example/?a="><img src=x>' };
    for (const make of [confirmationLetter, passwordResetLetter, emailChangeLetter]) {
      const { html, text } = make(evil);
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<b>');
      expect(html).not.toContain('"><img');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(html).toContain('Б&amp;&lt;b&gt;ренд&lt;/b&gt;');
      expect(text).toContain('<script>alert("x")</script>'); // plain text stays as it is
    }
  });

  it('greet without a name when there is none', () => {
    expect(confirmationLetter({ ...params, name: '  ' }).text).toMatch(/^Здравствуйте!\n/);
  });
});
