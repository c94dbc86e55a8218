import { describe, expect, it } from 'vitest';
import { dayOf, daysUpTo } from '#contract/dashboard';
import { basisPoints, dayLabel, percent } from './format.ts';
import { referralLink } from './referral-view.tsx';

describe('dashboard days and labels', () => {
  it('counts Moscow days: 21:00 UTC is already the next day', () => {
    expect(dayOf(new Date('2026-11-23T20:59:59Z'))).toBe('2026-11-23');
    expect(dayOf(new Date('2026-11-23T21:00:00Z'))).toBe('2026-11-24');
  });

  it('lists the days of a period up to the last, across a month and a year', () => {
    expect(daysUpTo('2026-03-02', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    const year = daysUpTo('2027-01-01', 365);
    expect(year).toHaveLength(365);
    expect(year[0]).toBe('2026-01-02');
  });

  it('shows days as written whatever the browser zone, rates as Russian percents', () => {
    expect(dayLabel('2026-11-01')).toBe('1 ноября');
    expect(basisPoints(350)).toBe('3,5 %');
    expect(basisPoints(250)).toBe('2,5 %');
    expect(percent(2 / 7)).toBe('28,6 %');
  });

  it('makes the referral link on the site address, with or without its trailing slash', () => {
    expect(referralLink('https://podryad.example/', 'AB12CD34')).toBe('https://podryad.example/?referralCode=AB12CD34');
    expect(referralLink('https://podryad.example', 'AB12CD34')).toBe('https://podryad.example/?referralCode=AB12CD34');
  });
});
