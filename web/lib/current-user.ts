import type { Me } from '#contract/api';
import { api } from './api.ts';

// The signed-in user as the root loader delivered it, for client loaders that run outside React.
let user: Me | null = null;
export const setCurrentUser = (next: Me | null) => void (user = next);
export const currentUser = () => user;

/**
 * The signed-in person's active role for a page's list: as the shell has it (a role switched by the header reloads
 * the page), asked of the server only if the shell has not rendered yet. One round trip fewer before the orders or
 * bids. A page that can switch the role itself, and reloads its list in the same revalidation as the shell's, asks
 * the server instead.
 */
export async function activeRole(): Promise<Me['active_role']> {
  return (user ?? (await api.read('users.me', {}, { fresh: true })).result).active_role;
}
