import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import { twoFactorChallengeSchema } from '../two-factor.ts';
import { loginSchema, noticeSchema, recoverSchema, registerSchema, resetSchema, sessionSchema, tokenBodySchema } from '../auth.ts';

const tags = ['auth'];
/** A new session's token (JWT). */
const token = okSchema(z.string());
const notice = okSchema(noticeSchema);
const done = okSchema(z.literal(true));

/** Registration, sign-in, email confirmation and password recovery (ADR 004). */
export const authEndpoints = defineEndpoints({
  'auth.register': { access: 'public', tags, body: registerSchema, response: token },
  // A token, or (the account has a second factor) a challenge for POST /api/auth/login/two-factor (ADR 054).
  'auth.login': { access: 'public', tags, body: loginSchema, response: okSchema(z.union([z.string(), twoFactorChallengeSchema])) },
  'auth.logoutAll': { access: 'user', tags, response: done },
  'auth.confirm': { access: 'public', tags, body: tokenBodySchema, response: notice },
  'auth.resendConfirmation': { access: 'user', tags, response: done },
  'auth.recover': { access: 'public', tags, body: recoverSchema, response: notice },
  'auth.reset': { access: 'public', tags, body: resetSchema, response: notice },
  // Sessions (ADR 055): the person's own only; another's session is 404, as an unknown one.
  'auth.sessions': { access: 'user', tags, summary: "The person's sessions that have not ended", response: okSchema(z.array(sessionSchema)) },
  'auth.endSession': { access: 'user', tags, summary: 'End one of the own sessions: its tokens and sockets stop at once', params: idParams, response: done },
  'auth.endOtherSessions': {
    access: 'user',
    tags,
    summary: 'End every session but this one; answers a fresh token for this one',
    response: token,
  },
});
