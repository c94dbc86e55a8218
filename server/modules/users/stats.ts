import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

// What the users module tells the dashboard about people (ADR 047): the people a person brought by their referral
// link. The dashboard's referral page reads them here instead of the users table.

/** A person brought by a referral link, as the referrer's page lists them. */
export interface ReferredPerson {
  id: string;
  name: string;
  surname: string;
  avatar: string | null;
  roles: string[];
  createdAt: Date;
}

/** The people `referrerId` brought, the latest first. */
export async function referredPeople(db: Db, referrerId: string): Promise<ReferredPerson[]> {
  const { rows } = (await db.execute(sql`
      select u.id, u.name, u.surname, u.avatar, u.roles, u.created_at
      from users u where u.referred_by = ${referrerId}
      order by u.created_at desc, u.id desc`)) as unknown as {
    rows: { id: string; name: string; surname: string; avatar: string | null; roles: string[] | string; created_at: unknown }[];
  };
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    surname: p.surname,
    avatar: p.avatar,
    roles: Array.isArray(p.roles) ? p.roles : parseArray(p.roles),
    createdAt: new Date(p.created_at as string | Date),
  }));
}

/** A text[] as some drivers give it: `{seller,customer}`. */
function parseArray(value: string): string[] {
  return value.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
}
