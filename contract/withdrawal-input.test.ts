import { describe, expect, it } from 'vitest';
import { cardMask, innValid, looksLikeCardNumber, tokenLooksLikeCardNumber, normalisePhone, normaliseWallet, PAYMENT_MESSAGES, walletLooksLikeCard, withdrawalInputSchema } from './payments.ts';

// A withdrawal's input (ADR 050): a card only by its payout-widget token and mask; no field that looks like a card
// number (a Luhn-valid run of 13–19 digits, spaces and dashes ignored).

const CARD = '2202201234567895';
const issues = (input: unknown) => {
  const parsed = withdrawalInputSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('looksLikeCardNumber', () => {
  it.each([
    [CARD, true],
    ['2202 2012 3456 7895', true],
    ['2202-2012-3456-7895', true],
    [`token:${CARD}`, true],
    ['2202201234567894', false], // Luhn fails
    ['220220******7895', false], // a mask
    ['123456789012', false], // 12 digits
    ['pt-0d6a', false],
  ])('%j: %s', (text, looks) => {
    expect(looksLikeCardNumber(text)).toBe(looks);
  });
});

describe('tokenLooksLikeCardNumber', () => {
  it.each([
    [CARD, true],
    ['2202 2012 3456 7895', true],
    ['2202-2012-3456-7895', true],
    [`pt-${CARD}`, true],
    ['pt-0d6a', false],
    // A UUID-like token whose digit groups would join into a Luhn-valid number: a token, not a card.
    ['pt-22022012-3456-7895-abcd-ef0123456789', false],
  ])('%j: %s', (text, looks) => {
    expect(tokenLooksLikeCardNumber(text)).toBe(looks);
  });
  it('is what the card target of a withdrawal checks', () => {
    const token = 'pt-22022012-3456-7895-abcd-ef0123456789';
    expect(looksLikeCardNumber(token)).toBe(true);
    expect(issues({ amount: 100_000, method: 'card', payout_token: token, card: { first6: '220220', last4: '7895' } })).toEqual([]);
  });
});

describe('withdrawalInputSchema', () => {
  const card = { first6: '220220', last4: '7895', card_type: 'MIR' };

  it('takes a card by token and mask, a wallet, a crypto address', () => {
    expect(issues({ amount: 60_000, method: 'card', payout_token: 'pt-1', card })).toEqual([]);
    expect(issues({ amount: 60_000, method: 'yoomoney', destination: '4100 1175 8831 136' })).toEqual([]);
    expect(issues({ amount: 60_000, method: 'usdt', destination: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' })).toEqual([]);
  });

  it('refuses a card number wherever it is put', () => {
    expect(issues({ amount: 60_000, method: 'card', payout_token: CARD, card })).toEqual([`payout_token: ${PAYMENT_MESSAGES.cardNumberRefused}`]);
    expect(issues({ amount: 60_000, method: 'card', payout_token: 'pt-1', card: { ...card, card_type: CARD } })).toEqual([`card.card_type: ${PAYMENT_MESSAGES.cardNumberRefused}`]);
    expect(issues({ amount: 60_000, method: 'usdt', destination: CARD })).toEqual([`destination: ${PAYMENT_MESSAGES.cardNumberRefused}`]);
    expect(issues({ amount: 60_000, method: 'yoomoney', destination: CARD })).toEqual([`destination: ${PAYMENT_MESSAGES.cardNumberRefused}`]);
    expect(issues({ amount: 60_000, method: 'card', destination: CARD })).not.toEqual([]);
    expect(issues({ amount: 60_000, method: 'card', payout_token: 'pt-1', card, number: CARD })).not.toEqual([]);
    expect(issues({ amount: 60_000, method: 'card', payout_token: 'pt-1', card: { first6: CARD, last4: '7895' } })).not.toEqual([]);
  });

  it('refuses a card without a token or with more than its mask', () => {
    expect(issues({ amount: 60_000, method: 'card', payout_token: ' ', card })).toEqual([`payout_token: ${PAYMENT_MESSAGES.cardTokenMissing}`]);
    expect(issues({ amount: 60_000, method: 'card', payout_token: 'pt-1', card: { first6: '22022', last4: '7895' } })).toEqual([`card.first6: ${PAYMENT_MESSAGES.cardMask}`]);
  });
});

describe('wallets and masks', () => {
  it('reads a ЮMoney wallet of 11–20 digits', () => {
    expect(normaliseWallet('4100 1175 8831 136')).toBe('410011758831136');
    expect(normaliseWallet('4100117')).toBeNull();
    expect(normaliseWallet('41001175883113612345678')).toBeNull();
  });

  it('takes a ЮMoney number that passes Luhn by chance (prefix 4100), not another Luhn-valid number', () => {
    expect(looksLikeCardNumber('410011758831136')).toBe(true);
    expect(walletLooksLikeCard('410011758831136')).toBe(false);
    expect(walletLooksLikeCard(CARD)).toBe(true);
  });

  it('masks a card as its first six and last four', () => {
    expect(cardMask('220220', '7895')).toBe('220220******7895');
  });
});

describe('a self-employed seller’s INN and phone', () => {
  it.each([
    ['500100732259', true],
    ['770708389324', true],
    ['500100732258', false],
    ['50010073225', false],
    ['5001007322590', false],
  ])('INN %j: %s', (inn, valid) => {
    expect(innValid(inn)).toBe(valid);
  });

  it('reads a Russian mobile number', () => {
    expect(normalisePhone('+7 (900) 123-45-67')).toBe('79001234567');
    expect(normalisePhone('89001234567')).toBe('79001234567');
    expect(normalisePhone('12345')).toBeNull();
  });
});
