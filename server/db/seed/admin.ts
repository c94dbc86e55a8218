import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users } from '../../modules/users/schema.ts';
import { buildUser } from '../factories.ts';

/** The bootstrap admin from ADMIN_EMAIL / ADMIN_PASSWORD: created once, given the admin role if it exists. */
export async function ensureBootstrapAdmin(db: Db, email: string, password: string) {
  const [existing] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (existing) {
    if (!existing.roles.includes('admin')) {
      await db.update(users).set({ roles: [...existing.roles, 'admin'] }).where(sql`${users.id} = ${existing.id}`);
    }
    return;
  }
  const row = await buildUser({ email, password, role: 'admin', name: 'Администратор', surname: '' });
  await db.insert(users).values({ ...row, userName: `admin_${row.referralCode.toLowerCase()}` });
}
