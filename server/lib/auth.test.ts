import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { Tokens } from './auth.ts';

const secret = 'a-test-secret-that-is-definitely-long-enough-000';
const tokens = new Tokens(secret);
const user = { id: '00000000-0000-4000-8000-000000000001', tokenVersion: 3 };
const key = new TextEncoder().encode(secret);

describe('Tokens', () => {
  it('signs HS256 tokens with sub, exp, nbf and the token version', async () => {
    const token = await tokens.sign(user);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: user.id, ver: 3 });
    expect(claims.exp - claims.nbf).toBe(604800);
    expect(await tokens.verify(token)).toEqual({ sub: user.id, ver: 3 });
  });

  it('refuses alg none, foreign signatures, expired and not-yet-valid tokens', async () => {
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, ver: 3 })).toString('base64url')}.`;
    const foreign = await new SignJWT({ ver: 3 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ver: 3 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime(now - 10).sign(key);
    const early = await new SignJWT({ ver: 3 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setNotBefore(now + 600).setExpirationTime(now + 3600).sign(key);
    for (const bad of [none, foreign, expired, early, 'garbage', '']) expect(await tokens.verify(bad)).toBeNull();
  });

  it('refuses a token without exp, even signed with the real secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forever = await new SignJWT({ ver: 3 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(user.id).setIssuedAt(now).setNotBefore(now).sign(key);
    expect(await tokens.verify(forever)).toBeNull();
    // The same token with an exp passes: the refusal is about the missing claim alone.
    const bounded = await new SignJWT({ ver: 3 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(user.id).setIssuedAt(now).setNotBefore(now).setExpirationTime(now + 60).sign(key);
    expect(await tokens.verify(bounded)).toEqual({ sub: user.id, ver: 3 });
  });
});
