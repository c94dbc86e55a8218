import type { Me } from '#contract/api';
import type { UserRow } from './schema.ts';

/** The signed-in user's own view of their account (SPEC: GET /api/users/me/). */
export function presentMe(user: UserRow): Me {
  return {
    _id: user.id,
    user_name: user.userName,
    name: user.name,
    surname: user.surname,
    email: user.email,
    avatar: user.avatar,
    roles: user.roles,
    active_role: user.activeRole,
    referralCode: user.referralCode,
    email_confirmed: user.emailConfirmedAt !== null,
    two_factor: user.twoFactorAt !== null,
    about: user.about,
    city: user.cityId,
    country: user.countryId,
    created_at: user.createdAt.toISOString(),
    preferences: { currency: user.preferences.currency, emailNotifications: user.preferences.emailNotifications ?? {} },
  };
}
