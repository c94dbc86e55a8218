import type { Me } from '#contract/api';

// The signed-in user as the root loader delivered it, for client loaders that run outside React.
let user: Me | null = null;
export const setCurrentUser = (next: Me | null) => void (user = next);
export const currentUser = () => user;
