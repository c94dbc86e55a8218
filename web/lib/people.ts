// A person as the pages show them: the name and the addresses of the profile and of a chat with them. One place for
// what the catalogue's cards, bids, chats and the admin's lists used to spell each on their own.

interface Named {
  name: string;
  surname: string;
  user_name: string;
}

/** A person's display name: "Имя Фамилия", else the login. */
export const displayName = (u: Named) => `${u.name} ${u.surname}`.trim() || u.user_name;

/** A chat partner's name: as displayName, and "Пользователь" for a partner the answer left without a login. */
export const fullName = (p: Omit<Named, 'user_name'> & { user_name?: string }) => displayName({ user_name: '', ...p }) || 'Пользователь';

/** A person's public profile. */
export const userPath = (id: string) => `/user/${id}`;

/** The chat with a person, optionally about a service. */
export function messagesPath(to: string, serviceId?: string) {
  const params = new URLSearchParams({ to });
  if (serviceId) params.set('service', serviceId);
  return `/profile/messages?${params}`;
}
