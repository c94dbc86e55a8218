import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { call, login, randomAddress } from '../../test/api.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { accountById, type UserRow } from '../users/index.ts';
import { passkeyChallenges, passkeys } from './schema.ts';
import { TEST_TOTP_SECRET, freshCode, stepUpTokenFor } from './testing.ts';
import { TestAuthenticator } from './testing-passkey.ts';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_ADDRESS, CODE_FAILURES_PER_PAIR } from './two-factor.ts';
import { TWO_FACTOR_CODES, TWO_FACTOR_MESSAGES } from '#contract/two-factor';
import { PASSKEY_MESSAGES as M, type Passkey, type PasskeyOptions, type PasskeyResponse } from '#contract/passkeys';
import { TEST_SECRET } from '../../test/app.ts';

// ADR 054/057: real registration and authentication ceremonies through @simplewebauthn/server, the authenticator
// side built by hand in the test (an ES256 key, attestation 'none'); refusals of a wrong signature, a replayed
// challenge, a foreign credential and another origin; the passkey as a second factor, password-less and step-up.

let t: Awaited<ReturnType<typeof createTestApp>>;
const db = () => t.database.db;
/** The origin of app.inject's requests (Host: localhost:80), which the tests' app takes for its public origin. */
const ORIGIN = 'http://localhost';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sign = (user: UserRow) => t.app.services.tokens.sign(user);
const options = async (
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; remoteAddress?: string } = {},
) => {
  const res = await call<PasskeyOptions>(t.app, 'POST', url, { body: {}, ...opts });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};

/** A person with one passkey added through the API: the authenticator that holds it. */
async function withPasskey(user?: UserRow) {
  user ??= await createUser(db());
  const token = await sign(user);
  const headers = user.twoFactorAt ? { 'x-step-up': await stepUpTokenFor(TEST_SECRET, user) } : undefined;
  const authenticator = new TestAuthenticator(ORIGIN);
  const opts = await options('/api/auth/passkeys/options', { token, headers });
  const added = await call<Passkey>(t.app, 'POST', '/api/auth/passkeys', {
    token,
    body: { name: 'Ноутбук', response: authenticator.register(opts) },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { user: (await accountById(db(), user.id))!, token, authenticator, passkey: added.body.result };
}

const passwordless = async (response: (o: PasskeyOptions) => PasskeyResponse, remoteAddress = randomAddress()) => {
  const opts = await options('/api/auth/passkeys/login/options', { remoteAddress });
  return call<string>(t.app, 'POST', '/api/auth/passkeys/login', { body: { response: response(opts) }, remoteAddress });
};

describe('adding a passkey', () => {
  it('stores the public key, lists and removes it; the passkey counts as a second factor', async () => {
    const { user, token, passkey, authenticator } = await withPasskey();
    const [row] = await db().select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row).toMatchObject({
      credentialId: authenticator.id,
      name: 'Ноутбук',
      counter: 0,
      transports: ['internal'],
    });
    expect(row!.publicKey.length).toBeGreaterThan(60);
    expect(user.twoFactorAt).not.toBeNull();
    const list = await call<Passkey[]>(t.app, 'GET', '/api/auth/passkeys', { token });
    expect(list.body.result).toEqual([passkey]);
    // TOTP itself is still off: its card offers to turn it on.
    expect(
      (await call<{ enabled: boolean }>(t.app, 'GET', '/api/auth/two-factor', { token })).body.result.enabled,
    ).toBe(false);
    // Removing needs a step-up now that the person has a factor.
    const refused = await call(t.app, 'DELETE', `/api/auth/passkeys/${passkey._id}`, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(TWO_FACTOR_CODES.stepUpRequired);
    const removed = await call(t.app, 'DELETE', `/api/auth/passkeys/${passkey._id}`, {
      token,
      headers: { 'x-step-up': await stepUpTokenFor(TEST_SECRET, user) },
    });
    expect(removed.status).toBe(200);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
    expect((await accountById(db(), user.id))!.twoFactorAt).toBeNull();
  });

  it('asks a person who has a factor for a step-up before the options', async () => {
    const user = await createUser(db(), { twoFactor: true });
    const token = await sign(user);
    const res = await call(t.app, 'POST', '/api/auth/passkeys/options', { token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(TWO_FACTOR_CODES.stepUpRequired);
    await withPasskey(user);
  });

  it('refuses an attestation for another challenge, a replayed one, another origin and the same key twice', async () => {
    const user = await createUser(db());
    const token = await sign(user);
    const authenticator = new TestAuthenticator(ORIGIN);
    const add = (response: PasskeyResponse) =>
      call(t.app, 'POST', '/api/auth/passkeys', { token, body: { name: 'Ключ', response } });
    // A challenge the server never handed out.
    const forged = await add(authenticator.register({ challenge: 'bm90LW91cnM' }));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe(M.failed);
    // Another site's origin.
    const opts = await options('/api/auth/passkeys/options', { token });
    expect((await add(new TestAuthenticator('http://evil.example').register(opts))).status).toBe(400);
    // The challenge went with that attempt: a right answer to it is refused too.
    expect((await add(authenticator.register(opts))).status).toBe(400);
    const fresh = await options('/api/auth/passkeys/options', { token });
    const response = authenticator.register(fresh);
    expect((await add(response)).status).toBe(200);
    // The same answer again: the challenge is spent.
    expect((await add(response)).status).toBe(400);
    // Someone else cannot register that credential id.
    const other = await createUser(db());
    const otherOpts = await options('/api/auth/passkeys/options', { token: await sign(other) });
    const dup = await call(t.app, 'POST', '/api/auth/passkeys', {
      token: await sign(other),
      body: { name: 'Ключ', response: authenticator.register(otherOpts) },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe(M.duplicate);
  });
});

describe('the password-less sign-in', () => {
  it('signs in with a discoverable passkey, counts its signatures and opens a session', async () => {
    const { user, authenticator } = await withPasskey();
    const res = await passwordless((o) => authenticator.assert(o));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = await call<{ _id: string }>(t.app, 'GET', '/api/users/me/', { token: res.body.result });
    expect(me.body.result._id).toBe(user.id);
    const [row] = await db().select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('refuses a wrong signature, a replayed assertion, an unknown credential and another origin', async () => {
    const { authenticator } = await withPasskey();
    const bad = await passwordless((o) => authenticator.assert(o, { signature: true }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(M.failed);
    expect((await passwordless((o) => authenticator.assert(o, { origin: 'http://evil.example' }))).status).toBe(400);
    const stranger = new TestAuthenticator(ORIGIN, 'c29tZW9uZQ');
    const unknown = await passwordless((o) => stranger.assert(o));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(M.unknown);
    // Replay: the very same answer a second time.
    const opts = await options('/api/auth/passkeys/login/options');
    const response = authenticator.assert(opts);
    const remoteAddress = randomAddress();
    expect((await call(t.app, 'POST', '/api/auth/passkeys/login', { body: { response }, remoteAddress })).status).toBe(
      200,
    );
    expect((await call(t.app, 'POST', '/api/auth/passkeys/login', { body: { response }, remoteAddress })).status).toBe(
      400,
    );
    expect(await db().select().from(passkeyChallenges).where(eq(passkeyChallenges.challenge, opts.challenge))).toEqual(
      [],
    );
  });

  it('throttles failed assertions per address', async () => {
    const { authenticator } = await withPasskey();
    const remoteAddress = randomAddress();
    const stranger = new TestAuthenticator(ORIGIN, 'c29tZW9uZQ');
    for (let i = 0; i < CODE_FAILURES_PER_ADDRESS; i++)
      expect((await passwordless((o) => stranger.assert(o), remoteAddress)).status).toBe(400);
    const limited = await passwordless((o) => authenticator.assert(o), remoteAddress);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(M.tooManyAttempts);
    // Another address is not held back.
    expect((await passwordless((o) => authenticator.assert(o))).status).toBe(200);
  });

  it('throttles failed assertions per account, from any address; a right one takes its attempt back', async () => {
    const { authenticator } = await withPasskey();
    expect((await passwordless((o) => authenticator.assert(o))).status).toBe(200);
    for (let i = 0; i < CODE_FAILURES_PER_ACCOUNT; i++)
      expect((await passwordless((o) => authenticator.assert(o, { signature: true }))).status).toBe(400);
    const limited = await passwordless((o) => authenticator.assert(o));
    expect(limited.status).toBe(429);
    // Another person's passkey still signs in.
    const other = await withPasskey();
    expect((await passwordless((o) => other.authenticator.assert(o))).status).toBe(200);
  });
});

describe('the passkey as the second factor', () => {
  const challengeOf = async (email: string) => {
    const res = await login(t.app, email, DEFAULT_PASSWORD);
    expect(res.status).toBe(200);
    return (res.body.result as unknown as { two_factor: { challenge: string; methods: string[] } }).two_factor;
  };

  it("offers 'passkey' in the login's methods and answers the challenge with it", async () => {
    const { user, authenticator } = await withPasskey();
    const { challenge, methods } = await challengeOf(user.email);
    expect(methods).toEqual(['passkey']);
    const remoteAddress = randomAddress();
    const opts = await options('/api/auth/passkeys/login/options', { body: { challenge }, remoteAddress });
    expect((opts as { allowCredentials?: { id: string }[] }).allowCredentials?.map((c) => c.id)).toEqual([
      authenticator.id,
    ]);
    const res = await call<string>(t.app, 'POST', '/api/auth/passkeys/login', {
      body: { challenge, response: authenticator.assert(opts) },
      remoteAddress,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      (await call<{ _id: string }>(t.app, 'GET', '/api/users/me/', { token: res.body.result })).body.result._id,
    ).toBe(user.id);
  });

  it("refuses a foreign passkey for someone's challenge, and throttles per account and address", async () => {
    const { user } = await withPasskey(await createUser(db(), { twoFactor: true }));
    const { challenge, methods } = await challengeOf(user.email);
    expect(methods).toEqual(['totp', 'passkey']);
    const other = await withPasskey();
    const remoteAddress = randomAddress();
    for (let i = 0; i < CODE_FAILURES_PER_PAIR; i++) {
      const opts = await options('/api/auth/passkeys/login/options', { body: { challenge }, remoteAddress });
      const foreign = await call(t.app, 'POST', '/api/auth/passkeys/login', {
        body: { challenge, response: other.authenticator.assert(opts) },
        remoteAddress,
      });
      expect(foreign.status).toBe(400);
    }
    const opts = await options('/api/auth/passkeys/login/options', { body: { challenge }, remoteAddress });
    expect(
      (
        await call(t.app, 'POST', '/api/auth/passkeys/login', {
          body: { challenge, response: other.authenticator.assert(opts) },
          remoteAddress,
        })
      ).status,
    ).toBe(429);
    // The TOTP still answers the same challenge from elsewhere.
    const code = await freshCode(db(), user.id, TEST_TOTP_SECRET);
    expect(
      (
        await call(t.app, 'POST', '/api/auth/login/two-factor', {
          body: { challenge, code },
          remoteAddress: randomAddress(),
        })
      ).status,
    ).toBe(200);
  });

  it('refuses an answer to a password-less challenge in the second step, and an expired login challenge', async () => {
    const { user, authenticator } = await withPasskey();
    const { challenge } = await challengeOf(user.email);
    const open = await options('/api/auth/passkeys/login/options');
    const res = await call(t.app, 'POST', '/api/auth/passkeys/login', {
      body: { challenge, response: authenticator.assert(open) },
      remoteAddress: randomAddress(),
    });
    expect(res.status).toBe(400);
    const gone = await call(t.app, 'POST', '/api/auth/passkeys/login/options', { body: { challenge: 'x'.repeat(40) } });
    expect(gone.status).toBe(400);
    expect(gone.body.message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
  });

  const listed = async (token: string) => ({
    passkey: (await call<Passkey[]>(t.app, 'GET', '/api/auth/passkeys', { token })).body.result[0]!,
  });

  it('confirms a step-up with a passkey: the withdrawal-grade token and the cookie', async () => {
    const { token, authenticator } = await withPasskey();
    const opts = await options('/api/auth/step-up/passkey/options', { token });
    const wrong = await call(t.app, 'POST', '/api/auth/step-up/passkey', {
      token,
      body: { response: authenticator.assert(opts, { signature: true }) },
    });
    expect(wrong.status).toBe(400);
    const again = await options('/api/auth/step-up/passkey/options', { token });
    const res = await call<{ token: string; expires_in: number }>(t.app, 'POST', '/api/auth/step-up/passkey', {
      token,
      body: { response: authenticator.assert(again) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The token passes the step-up: removing the passkey (which asks for one) goes through with it.
    const { passkey } = await listed(token);
    const removed = await call(t.app, 'DELETE', `/api/auth/passkeys/${passkey._id}`, {
      token,
      headers: { 'x-step-up': res.body.result.token },
    });
    expect(removed.status).toBe(200);
    const stranger = await createUser(db());
    const strangerOpts = await call(t.app, 'POST', '/api/auth/step-up/passkey/options', {
      token: await sign(stranger),
      body: {},
    });
    expect(strangerOpts.status).toBe(400);
    expect(strangerOpts.body.message).toBe(M.none);
  });
});

describe('passkeys beside the TOTP', () => {
  it('turning the TOTP off keeps the second factor while a passkey remains; an admin reset removes both', async () => {
    const { user, token } = await withPasskey(await createUser(db(), { twoFactor: true }));
    const code = await freshCode(db(), user.id, TEST_TOTP_SECRET);
    const off = await call(t.app, 'POST', '/api/auth/two-factor/disable', { token, body: { password: DEFAULT_PASSWORD, code } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await accountById(db(), user.id))!.twoFactorAt).not.toBeNull();
    const res = await login(t.app, user.email, DEFAULT_PASSWORD);
    expect((res.body.result as unknown as { two_factor: { methods: string[] } }).two_factor.methods).toEqual(['passkey']);

    const admin = await createUser(db(), { role: 'admin' });
    const reset = await call(t.app, 'DELETE', `/api/admin/users/${user.id}/two-factor`, { token: await sign(admin) });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
    expect((await accountById(db(), user.id))!.twoFactorAt).toBeNull();
    expect(typeof (await login(t.app, user.email, DEFAULT_PASSWORD)).body.result).toBe('string');
  });
});
