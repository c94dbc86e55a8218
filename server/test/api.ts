import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { TURNSTILE_DUMMY_TOKEN } from '../lib/turnstile.ts';
import type { SinkMessage, SmtpSink } from './smtp-sink.ts';

// Shared by the account tests (auth, users, admin): calls through the real HTTP layer of the app.

export const PASSWORD = 'secret123';

export interface Answer<T = unknown> {
  status: number;
  body: { status: number; result: T; total?: number; message: string; errors?: Record<string, string[]>; code?: string };
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** One API call; the answer's JSON body parsed. */
export async function call<T = unknown>(app: FastifyInstance, method: InjectOptions['method'], url: string, opts: CallOptions = {}): Promise<Answer<T>> {
  const res = await app.inject({
    method,
    url,
    query: opts.query,
    payload: opts.body === undefined ? undefined : (opts.body as InjectOptions['payload']),
    remoteAddress: opts.remoteAddress,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
  });
  return { status: res.statusCode, body: res.body ? res.json() : {} } as Answer<T>;
}

export const unique = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** A valid registration body (SPEC §3) with a fresh email and login. */
export function registration(overrides: Record<string, unknown> = {}) {
  const id = unique();
  return {
    user_name: `u_${id}`,
    surname: 'Петров',
    name: 'Пётр',
    email: `reg_${id}@example.com`,
    password: PASSWORD,
    repeat_password: PASSWORD,
    role: 'customer',
    'cf-turnstile-response': TURNSTILE_DUMMY_TOKEN,
    personal_data_consent: true,
    ...overrides,
  };
}

/** A registration from a random address unless one is given (registrations are limited per address). */
export const register = (app: FastifyInstance, body: Record<string, unknown>, opts: CallOptions = {}) =>
  call<string>(app, 'POST', '/api/auth/register', { remoteAddress: randomAddress(), ...opts, body });

/** A login from a random address unless one is given (the per-address limit would otherwise add up over a file). */
export const login = (app: FastifyInstance, email: string, password: string, opts: CallOptions = {}) =>
  call<string>(app, 'POST', '/api/auth/login', { remoteAddress: randomAddress(), ...opts, body: { email, password } });

export const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

export const me = <T = Record<string, unknown>>(app: FastifyInstance, token: string | null) =>
  call<T>(app, 'GET', '/api/users/me/', { token });

/** The token of a /confirm_account or /recover link in a letter. */
export function linkToken(letter: SinkMessage, path: '/confirm_account' | '/recover'): string {
  const link = letter.links.map((l) => new URL(l)).find((u) => u.pathname === path);
  if (!link) throw new Error(`no ${path} link in "${letter.subject}": ${letter.links.join(', ')}`);
  return link.searchParams.get('token')!;
}

/** The first letter to `to` whose subject contains `subject`. */
export const letterTo = (sink: SmtpSink, to: string, subject: string) =>
  sink.waitFor((m) => m.to.includes(to) && m.subject.includes(subject));

export const SUBJECTS = { confirm: 'Подтвердите email', reset: 'Восстановление пароля', emailChange: 'Подтвердите новый email' } as const;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
