import type { Logger } from 'pino';

/**
 * Cloudflare's documented dummy token; without a secret the only one accepted, and in production only when
 * the operator switched the bot check off (TURNSTILE_DISABLED).
 */
export const TURNSTILE_DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

export interface TurnstileOptions {
  secret?: string;
  /** Cloudflare's siteverify endpoint (or a compatible one). */
  verifyUrl: string;
  timeoutMs?: number;
  /** NODE_ENV=production: without a secret nothing passes unless `disabled`. */
  production?: boolean;
  /** TURNSTILE_DISABLED: the operator chose to run without a bot check. */
  disabled?: boolean;
}

/** Checks Cloudflare Turnstile tokens; every failure, including Cloudflare being unreachable, is a refusal. */
export class Turnstile {
  private readonly secret?: string;
  private readonly verifyUrl: string;
  private readonly timeoutMs: number;
  private readonly acceptsDummy: boolean;

  constructor(
    opts: TurnstileOptions,
    private readonly log: Logger,
  ) {
    this.secret = opts.secret || undefined;
    this.verifyUrl = opts.verifyUrl;
    this.timeoutMs = opts.timeoutMs ?? 5000;
    // A production server missing its secret by mistake must not let everyone through with a public token.
    this.acceptsDummy = !opts.production || opts.disabled === true;
  }

  /** Whether a site key/secret pair is configured (otherwise only the dummy token passes). */
  get configured(): boolean {
    return this.secret !== undefined;
  }

  async verify(token: unknown, remoteIp?: string): Promise<boolean> {
    // Cloudflare's tokens are at most 2048 characters long.
    if (typeof token !== 'string' || token === '' || token.length > 2048) return false;
    if (!this.secret) return this.acceptsDummy && token === TURNSTILE_DUMMY_TOKEN;

    const form = new URLSearchParams({ secret: this.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    try {
      const res = await fetch(this.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        this.log.warn({ status: res.status }, 'turnstile: siteverify answered with an error status');
        return false;
      }
      const body: unknown = await res.json();
      if (typeof body !== 'object' || body === null) {
        this.log.warn('turnstile: siteverify answered with something other than an object');
        return false;
      }
      const result = body as { success?: unknown; 'error-codes'?: unknown };
      if (result.success === true) return true;
      this.log.debug({ errorCodes: result['error-codes'] }, 'turnstile: token refused');
      return false;
    } catch (err) {
      this.log.warn({ err }, 'turnstile: siteverify failed');
      return false;
    }
  }
}
