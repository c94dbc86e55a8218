import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v)));

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/** The networks ЮKassa sends its notifications from (its documentation, «Входящие уведомления»). */
const YOOKASSA_WEBHOOK_NETWORKS = ['185.71.76.0/27', '185.71.77.0/27', '77.75.153.0/25', '77.75.156.11', '77.75.156.35', '77.75.154.128/25', '2a02:5180::/32'];

const providerChoice = z.enum(['sandbox', 'yookassa', 'btcpay', 'none']).optional();

/** A comma-separated list of addresses and CIDRs; unset, ЮKassa's published networks. */
const networks = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : YOOKASSA_WEBHOOK_NETWORKS))
  .refine((list) => list.every((entry) => validNetwork(entry)), { message: 'must be addresses or CIDRs separated by commas' });

function validNetwork(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address ?? '');
  if (!version || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_HELP = 'list the addresses or CIDRs of your reverse proxies, e.g. TRUST_PROXY=127.0.0.1';

/** One entry of TRUST_PROXY: an address, an address/prefix, or one of proxy-addr's named ranges. */
function proxyEntryProblem(entry: string): string | null {
  if (PROXY_NAMES.has(entry)) return null;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return `"${entry}" is not an address or CIDR`;
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128) ? null : `"${entry}" has a bad prefix length`;
}

/**
 * The proxies whose X-Forwarded-* headers are believed, as Fastify's trustProxy address list; false trusts none.
 * "true" and hop counts are refused: they trust whoever reaches the port, so any client could pick its own
 * address and walk past every per-address limit (docs/decisions/009).
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): string[] | false => {
    const v = (value ?? '').trim().toLowerCase();
    if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
    if (['true', 'yes', 'on'].includes(v) || /^\d+$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: `"${value}" would trust any client's X-Forwarded-For: ${TRUST_PROXY_HELP}` });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
    for (const problem of entries.map(proxyEntryProblem)) {
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem}: ${TRUST_PROXY_HELP}` });
    }
    return entries;
  });

/** PUBLIC_URL as an origin (scheme, host, port): links are built by appending paths to it. */
const publicUrl = optionalUrl(['http://', 'https://']).transform((v, ctx) => {
  if (v === undefined) return undefined;
  try {
    return new URL(v).origin;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a URL such as https://podryad.example' });
    return z.NEVER;
  }
});

/** An optional name of printable ASCII characters, no spaces. */
const printableName = (max: number) =>
  z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || (v.length <= max && /^[\x21-\x7e]+$/.test(v)), `must be 1 to ${max} printable ASCII characters without spaces`);

export const DEFAULT_RATES_URL =
  'https://api.coingecko.com/api/v3/simple/price?ids=bitcoin,tether&vs_currencies=rub';

/**
 * Files in an S3-compatible bucket (ADR 060, docs/deploy.md), needed on several machines; without S3_BUCKET they stay
 * in DATA_DIR/uploads. Without the key pair the SDK's own chain (AWS_* variables, an instance role) is asked.
 */
const S3_VARIABLES = {
  S3_BUCKET: z.string().optional().transform((v) => v || undefined),
  S3_ENDPOINT: optionalUrl(['https://', 'http://']),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional().transform((v) => v || undefined),
  S3_SECRET_ACCESS_KEY: z.string().optional().transform((v) => v || undefined),
  // Path-style addresses (<endpoint>/<bucket>/<key>): MinIO and most self-hosted servers need them.
  S3_FORCE_PATH_STYLE: flag(false),
};

function schemaFor(nodeEnv: string) {
  return z
    .object({
      NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
      HOST: z.string().min(1).default('0.0.0.0'),
      PORT: z.coerce.number().int().min(0).max(65535).default(3000),
      DATA_DIR: z.string().min(1).default('./data'),
      DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
      REDIS_URL: optionalUrl(['redis://', 'rediss://']),
      // What this deployment's Redis keys and Socket.IO channels start with (ADR 061); unset, one made from the
      // deployment's id kept in its database, so two deployments sharing a Redis never share channels or counters.
      REDIS_PREFIX: printableName(100),
      // This instance's name, the same across its restarts and unique among live instances (ADR 061); unset, the
      // host's name with HOST:PORT. A restarted instance takes back at once the outbox rows its previous process held.
      INSTANCE_ID: printableName(200),
      JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
      // The payment providers' webhook signing secret (ADR 026); generated once and kept in DATA_DIR when unset.
      PAYMENTS_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
      // The built-in sandbox provider confirms payments no one paid: on for development, tests and the demo; a
      // production deployment turns it on only by choice (until a real provider adapter is configured, card, USDT
      // and BTC are then unavailable and orders are paid from the balance only).
      PAYMENTS_SANDBOX: z.enum(['true', 'false', '1', '0']).optional(),
      // Which provider serves a method (ADR 048): a provider's name or `none`; unset, the configured one.
      PAYMENTS_CARD: providerChoice,
      PAYMENTS_USDT: providerChoice,
      PAYMENTS_BTC: providerChoice,
      // ЮKassa's shop (docs/payments.md): its id and secret key from the cabinet; the API and the networks its
      // notifications come from default to ЮKassa's own.
      YOOKASSA_SHOP_ID: z.string().optional().transform((v) => v || undefined),
      YOOKASSA_SECRET_KEY: z.string().optional().transform((v) => v || undefined),
      YOOKASSA_API_URL: z.url().default('https://api.yookassa.ru/v3'),
      YOOKASSA_WEBHOOK_IPS: networks,
      // ЮKassa's payouts gateway (ADR 050): its agentId and secret key («Настройки выплат»), the shop's when unset,
      // and the payout widget's script (ЮKassa's published one unless a test points it at the fake).
      YOOKASSA_PAYOUT_AGENT_ID: z.string().optional().transform((v) => v || undefined),
      YOOKASSA_PAYOUT_SECRET_KEY: z.string().optional().transform((v) => v || undefined),
      YOOKASSA_PAYOUT_WIDGET_URL: optionalUrl(['https://', 'http://']),
      // A BTCPay Server store for BTC and USDT (docs/payments.md): Greenfield API key, store, webhook secret.
      BTCPAY_URL: optionalUrl(['https://', 'http://']),
      BTCPAY_API_KEY: z.string().optional().transform((v) => v || undefined),
      BTCPAY_STORE_ID: z.string().optional().transform((v) => v || undefined),
      BTCPAY_WEBHOOK_SECRET: z.string().optional().transform((v) => v || undefined),
      ADMIN_EMAIL: z.email().optional(),
      ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
      SEED_DEMO: flag(nodeEnv !== 'production'),
      // Set by `npm start` run without NODE_ENV: the one-step demo, in production mode, with demo data.
      DEMO_MODE: flag(false),
      PUBLIC_DEV: flag(false),
      // An empty RATES_URL switches the rates refresh off (closed networks, tests).
      RATES_URL: z
        .string()
        .default(DEFAULT_RATES_URL)
        .refine((v) => v === '' || /^https?:\/\//.test(v), 'must be an http(s) URL or empty'),
      BRAND_NAME: z.string().min(1).default('Подряд'),
      PUBLIC_URL: publicUrl,
      SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
      MAIL_FROM: z.string().min(3).default('Подряд <no-reply@localhost>'),
      // Cloudflare Turnstile: without a secret only Cloudflare's documented dummy token passes.
      TURNSTILE_SECRET: z.string().optional().transform((v) => v || undefined),
      TURNSTILE_SITE_KEY: z.string().optional().transform((v) => v || undefined),
      TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
      // Production without a bot check must be chosen explicitly.
      TURNSTILE_DISABLED: flag(false),
      ...S3_VARIABLES,
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      TRUST_PROXY: trustProxy,
      // A MaxMind-format City database (.mmdb: GeoLite2-City, DB-IP's IP to City Lite) that names the city of each
      // sign-in on the sessions list (ADR 059); read once at start, never fetched. Missing or unreadable: a warning.
      GEOIP_DB: z.string().optional().transform((v) => v || undefined),
      // The most worker threads pages are rendered in once renders keep the server busy (ADR 077); 0 renders on the server's
      // own thread. Unset, one fewer than the machine's cores, at most 4.
      RENDER_THREADS: z.coerce.number().int().min(0).max(64).default(Math.min(4, availableParallelism() - 1)),
    })
    .refine((e) => !e.YOOKASSA_SHOP_ID === !e.YOOKASSA_SECRET_KEY, {
      message: 'YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY go together',
      path: ['YOOKASSA_SECRET_KEY'],
    })
    .refine((e) => [e.BTCPAY_URL, e.BTCPAY_API_KEY, e.BTCPAY_STORE_ID, e.BTCPAY_WEBHOOK_SECRET].every((v) => !v) || [e.BTCPAY_URL, e.BTCPAY_API_KEY, e.BTCPAY_STORE_ID, e.BTCPAY_WEBHOOK_SECRET].every(Boolean), {
      message: 'BTCPAY_URL, BTCPAY_API_KEY, BTCPAY_STORE_ID and BTCPAY_WEBHOOK_SECRET go together',
      path: ['BTCPAY_URL'],
    })
    // A provider is called again with the same request after a crash (ADR 048): its return address must not be one
    // instance's own.
    .refine((e) => e.NODE_ENV !== 'production' || !(e.YOOKASSA_SHOP_ID || e.BTCPAY_URL) || e.PUBLIC_URL, {
      message: 'required with a payment provider: the address customers return to, the same on every instance',
      path: ['PUBLIC_URL'],
    })
    .refine((e) => !e.S3_ACCESS_KEY_ID === !e.S3_SECRET_ACCESS_KEY, { message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together', path: ['S3_SECRET_ACCESS_KEY'] })
    .refine((e) => e.S3_BUCKET || !(e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID), { message: 'required with S3_ENDPOINT or S3_ACCESS_KEY_ID: the bucket files are kept in', path: ['S3_BUCKET'] })
    .refine((e) => !e.ADMIN_EMAIL === !e.ADMIN_PASSWORD, {
      message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together',
      path: ['ADMIN_PASSWORD'],
    })
    // These two are checked even when other variables are bad, so that the boot error lists them too.
    .refine((e) => e.NODE_ENV !== 'production' || e.TURNSTILE_SECRET || e.TURNSTILE_DISABLED, {
      message: 'required with NODE_ENV=production (or set TURNSTILE_DISABLED=true to run without a bot check)',
      path: ['TURNSTILE_SECRET'],
      when: () => true,
    })
    .refine((e) => e.NODE_ENV !== 'production' || !e.SEED_DEMO || e.DEMO_MODE, {
      message: 'demo users are never seeded with NODE_ENV=production (run `npm start` without NODE_ENV for the demo)',
      path: ['SEED_DEMO'],
      when: () => true,
    });
}

export type Env = Omit<z.output<ReturnType<typeof schemaFor>>, 'JWT_SECRET' | 'PAYMENTS_WEBHOOK_SECRET' | 'PAYMENTS_SANDBOX'> & {
  JWT_SECRET: string;
  PAYMENTS_WEBHOOK_SECRET: string;
  /** Whether the sandbox provider takes card, USDT and BTC payments (see the schema). */
  PAYMENTS_SANDBOX: boolean;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Validates the whole environment at once and reports every problem together. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schemaFor(source.NODE_ENV ?? 'development').safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const env = parsed.data;
  return {
    ...env,
    JWT_SECRET: env.JWT_SECRET ?? persistentSecret(env.DATA_DIR),
    PAYMENTS_WEBHOOK_SECRET: env.PAYMENTS_WEBHOOK_SECRET ?? persistentSecret(env.DATA_DIR, 'payments-webhook-secret'),
    PAYMENTS_SANDBOX: env.PAYMENTS_SANDBOX === undefined ? env.NODE_ENV !== 'production' || env.DEMO_MODE : ['true', '1'].includes(env.PAYMENTS_SANDBOX),
  };
}

/** A secret generated once and kept in DATA_DIR, so tokens (or signatures) survive restarts without configuration. */
function persistentSecret(dataDir: string, name = 'jwt-secret'): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
