import type { Role } from './schema.ts';
import { definePolicy } from '../../platform/policy.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { MESSAGES } from '#contract/messages';

// What a member may do with their own account (ADR 016); the endpoints' guard already says it is their own.

export const accountPolicy = definePolicy<{ switchRole: { role: Exclude<Role, 'admin'> } }>(MESSAGES.notFound, {
  // Selling needs the seller role (becoming a seller is its own step); buying is everyone's.
  switchRole: (actor, { role }) => (role !== 'seller' || actor?.roles.includes('seller') ? 'allow' : { forbidden: AUTH_MESSAGES.needSellerRole }),
});
