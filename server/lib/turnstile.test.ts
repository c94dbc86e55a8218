import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TURNSTILE_DUMMY_TOKEN, Turnstile } from './turnstile.ts';

const log = pino({ level: 'silent' });

/** A fake siteverify: answers with whatever `reply` says and records the posted forms. */
let reply: (res: http.ServerResponse) => void;
const posted: { contentType?: string; form: Record<string, string> }[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    posted.push({ contentType: req.headers['content-type'], form: Object.fromEntries(new URLSearchParams(body)) });
    reply(res);
  });
});
let verifyUrl: string;

const json = (body: unknown, status = 200) => (res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  posted.length = 0;
});

describe('Turnstile with a secret', () => {
  const turnstile = () => new Turnstile({ secret: 'the-secret', verifyUrl, timeoutMs: 300 }, log);

  it('accepts a token siteverify approves and posts secret, response and remoteip as a form', async () => {
    reply = json({ success: true, challenge_ts: '2025-01-01T00:00:00Z', hostname: 'localhost', 'error-codes': [] });
    expect(await turnstile().verify('token-from-widget', '203.0.113.7')).toBe(true);
    expect(posted).toEqual([
      {
        contentType: 'application/x-www-form-urlencoded',
        form: { secret: 'the-secret', response: 'token-from-widget', remoteip: '203.0.113.7' },
      },
    ]);
  });

  it('leaves remoteip out when it is not known', async () => {
    reply = json({ success: true });
    expect(await turnstile().verify('token')).toBe(true);
    expect(posted[0]!.form).toEqual({ secret: 'the-secret', response: 'token' });
  });

  it('refuses a token siteverify rejects', async () => {
    reply = json({ success: false, 'error-codes': ['invalid-input-response'] });
    expect(await turnstile().verify('bad-token', '203.0.113.7')).toBe(false);
  });

  it('refuses quickly when siteverify does not answer in time', async () => {
    reply = () => {}; // never answers
    const started = Date.now();
    expect(await turnstile().verify('token')).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses on HTTP 500, on broken JSON, on a truthy but not true success and on a network error', async () => {
    reply = json({ success: true }, 500);
    expect(await turnstile().verify('token')).toBe(false);
    reply = (res) => res.end('<html>not json</html>');
    expect(await turnstile().verify('token')).toBe(false);
    reply = json({ success: 'true' });
    expect(await turnstile().verify('token')).toBe(false);
    const unreachable = new Turnstile({ secret: 's', verifyUrl: 'http://127.0.0.1:1/siteverify', timeoutMs: 300 }, log);
    expect(await unreachable.verify('token')).toBe(false);
  });

  it('refuses a missing, empty or non-string token without asking siteverify', async () => {
    reply = json({ success: true });
    for (const token of [undefined, null, '', 42, ['token'], { token: 'x' }]) expect(await turnstile().verify(token)).toBe(false);
    expect(posted).toHaveLength(0);
  });

  it('logs a warning when siteverify fails', async () => {
    const lines: string[] = [];
    const logged = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
    reply = json({}, 500);
    expect(await new Turnstile({ secret: 's', verifyUrl }, logged).verify('token')).toBe(false);
    expect(lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ level: 40, status: 500 }));
  });
});

describe('Turnstile without a secret', () => {
  const turnstile = new Turnstile({ verifyUrl }, log);

  it('accepts only the dummy token', async () => {
    expect(TURNSTILE_DUMMY_TOKEN).toBe('XXXX.DUMMY.TOKEN.XXXX');
    expect(await turnstile.verify(TURNSTILE_DUMMY_TOKEN)).toBe(true);
    expect(await turnstile.verify('some-other-token')).toBe(false);
    expect(await turnstile.verify(` ${TURNSTILE_DUMMY_TOKEN}`)).toBe(false);
    expect(await turnstile.verify('')).toBe(false);
    expect(await turnstile.verify(undefined)).toBe(false);
    expect(posted).toHaveLength(0);
  });

  it('treats an empty secret as none', async () => {
    expect(await new Turnstile({ secret: '', verifyUrl }, log).verify(TURNSTILE_DUMMY_TOKEN)).toBe(true);
  });
});

describe('Turnstile without a secret in production', () => {
  it('refuses the dummy token unless the operator switched the bot check off', async () => {
    const production = new Turnstile({ verifyUrl, production: true }, log);
    expect(await production.verify(TURNSTILE_DUMMY_TOKEN)).toBe(false);
    expect(await new Turnstile({ secret: '', verifyUrl, production: true, disabled: false }, log).verify(TURNSTILE_DUMMY_TOKEN)).toBe(false);
    const disabled = new Turnstile({ verifyUrl, production: true, disabled: true }, log);
    expect(await disabled.verify(TURNSTILE_DUMMY_TOKEN)).toBe(true);
    expect(await disabled.verify('some-other-token')).toBe(false);
    expect(posted).toHaveLength(0);
  });

  it('asks siteverify about the dummy token when a secret is set (Cloudflare refuses it for a real secret)', async () => {
    reply = json({ success: false, 'error-codes': ['invalid-input-response'] });
    expect(await new Turnstile({ secret: 'the-secret', verifyUrl, production: true }, log).verify(TURNSTILE_DUMMY_TOKEN)).toBe(false);
    expect(posted).toHaveLength(1);
  });
});
