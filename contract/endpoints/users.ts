import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { meSchema, okSchema } from '../api.ts';
import { avatarSchema, changeEmailSchema, changePasswordSchema, noticeSchema, profileSchema, roleSwitchSchema } from '../auth.ts';

const tags = ['users'];
const me = okSchema(meSchema);

/** The signed-in person's own account: profile, avatar, password, email, active role. */
export const userEndpoints = defineEndpoints({
  'users.me': { access: 'user', tags, response: me },
  'users.update': { access: 'user', tags, body: profileSchema, response: me },
  'users.setAvatar': { access: 'user', tags, body: avatarSchema, response: me },
  // The answer is a new token: the other sessions end.
  'users.changePassword': { access: 'user', tags, body: changePasswordSchema, response: okSchema(z.string()) },
  'users.changeEmail': { access: 'user', tags, body: changeEmailSchema, response: okSchema(noticeSchema) },
  'users.setRole': { access: 'user', tags, body: roleSwitchSchema, response: me },
  'users.becomeSeller': { access: 'user', tags, response: me },
});
