export const ROLE_LABELS: Record<string, string> = { customer: 'Покупатель', seller: 'Продавец', admin: 'Администратор' };
export const roleList = (roles: string[]) => roles.map((r) => ROLE_LABELS[r] ?? r).join(', ');
