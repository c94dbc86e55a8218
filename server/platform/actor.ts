import type { UserRow } from '../modules/users/schema.ts';

/**
 * Who a command acts for: a signed-in person, or the system itself (a job, the boot sequence), named so that logs
 * and audit records can tell which part acted.
 */
export type Actor = { kind: 'user'; user: UserRow } | { kind: 'system'; name: string };

export const userActor = (user: UserRow): Actor => ({ kind: 'user', user });
export const systemActor = (name: string): Actor => ({ kind: 'system', name });
