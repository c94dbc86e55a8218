import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#contract/messages';
import { routeOf } from '#contract/routes';

// Paying sends its attempt's Idempotency-Key and the session's token itself (api.write takes no headers); every
// failure comes back as an ApiError with the status the retry rule reads.

const ofetch = vi.fn();
let token: string | null = null;
vi.mock('ofetch', () => ({ ofetch: (...args: unknown[]) => ofetch(...args) }));
vi.mock('../../lib/token.ts', () => ({ getToken: () => token }));
vi.mock('../../lib/api.ts', () => ({ apiBaseUrl: () => 'https://api.example' }));
const { newIdempotencyKey, payOnce } = await import('./pay-request.ts');

const body = { order_id: 'o1', method: 'card' };
const paid = { result: { payment_id: 'p1', order_id: 'o1', status: 'pending', redirect_url: 'https://sandbox/p1' } };

describe('payOnce', () => {
  beforeEach(() => {
    ofetch.mockReset();
    token = null;
  });

  it('posts to the pay endpoint once, with the key and the bearer token', async () => {
    ofetch.mockResolvedValue(paid);
    token = 'jwt';
    await expect(payOnce(body, 'k-1')).resolves.toEqual({ data: paid });
    const { method, path } = routeOf('payments.pay');
    expect(ofetch).toHaveBeenCalledTimes(1);
    expect(ofetch).toHaveBeenCalledWith(path, {
      baseURL: 'https://api.example',
      method,
      body,
      retry: 0,
      headers: { 'Idempotency-Key': 'k-1', authorization: 'Bearer jwt' },
    });
  });

  it('sends no authorization header without a token', async () => {
    ofetch.mockResolvedValue(paid);
    await payOnce(body, 'k-2');
    expect(ofetch.mock.calls[0]![1].headers).toEqual({ 'Idempotency-Key': 'k-2' });
  });

  it.each([
    ['the body’s status and message', { data: { status: 409, message: 'Курс устарел' }, statusCode: 500 }, 409, 'Курс устарел'],
    ['the response’s status code', { statusCode: 422, data: { message: 'Неверный способ' } }, 422, 'Неверный способ'],
    ['the plain status', { status: 503 }, 503, MESSAGES.unexpected],
    ['no status at all (a lost answer)', new Error('network'), 0, MESSAGES.unexpected],
  ])('answers an error with %s', async (_what, thrown, status, message) => {
    ofetch.mockRejectedValue(thrown);
    const answer = await payOnce(body, 'k');
    expect(answer.data).toBeUndefined();
    expect(answer.error).toMatchObject({ status, message });
  });

  it('keeps the field errors of a refusal', async () => {
    const errors = { method: ['Выберите способ оплаты'] };
    ofetch.mockRejectedValue({ data: { status: 422, message: 'Ошибка', errors } });
    expect((await payOnce(body, 'k')).error).toEqual({ status: 422, message: 'Ошибка', errors });
  });
});

describe('newIdempotencyKey', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a random UUID where the context offers one', () => {
    const a = newIdempotencyKey();
    const b = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
  });

  it('falls back to 16 random bytes in hex on plain HTTP (no randomUUID)', () => {
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => bytes.map((_, i) => i * 17) });
    expect(newIdempotencyKey()).toBe('00112233445566778899aabbccddeeff');
  });
});
