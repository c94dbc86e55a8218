import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { users, type NewUserRow, type Role, type UserRow } from '../modules/users/schema.ts';
import { files } from '../modules/files/schema.ts';
import { hashPassword } from '../lib/passwords.ts';
import { recordConsent } from '../modules/privacy/index.ts';
import { TEST_TOTP_SECRET, enrolTotp } from '../modules/auth/index.ts';

// Factories shared by the tests and the demo seed, so demo data always matches the schema.

const FIRST_NAMES = ['Алексей', 'Мария', 'Дмитрий', 'Анна', 'Сергей', 'Екатерина', 'Иван', 'Ольга', 'Никита', 'Татьяна', 'Артём', 'Юлия', 'Павел', 'Наталья', 'Михаил', 'Алёна'];
const SURNAMES_M = ['Смирнов', 'Иванов', 'Кузнецов', 'Попов', 'Соколов', 'Лебедев', 'Козлов', 'Новиков', 'Морозов', 'Волков'];
const FEMALE = new Set(['Мария', 'Анна', 'Екатерина', 'Ольга', 'Татьяна', 'Юлия', 'Наталья', 'Алёна']);

let sequence = 0;
let lastInsert = 0;

/**
 * Runs a factory's insert in a millisecond later than the last one's end. PGlite's now() counts whole milliseconds, so
 * two rows made in one sort by their random ids in a "newest first" list, and a test expecting the later one first
 * fails now and then on a fast machine. The row keeps the database's own now().
 */
export async function inOwnMillisecond<T>(insert: () => Promise<T>): Promise<T> {
  while (Date.now() <= lastInsert) await new Promise((resolve) => setTimeout(resolve, 1));
  try {
    return await insert();
  } finally {
    lastInsert = Date.now();
  }
}

const pick = <T>(list: T[], i: number) => list[i % list.length]!;

export const DEFAULT_PASSWORD = 'demo12345';
const hashCache = new Map<string, Promise<string>>();
const cachedHash = (password: string) => {
  if (!hashCache.has(password)) hashCache.set(password, hashPassword(password));
  return hashCache.get(password)!;
};

export const newReferralCode = () => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8).toUpperCase();

export interface UserOverrides extends Partial<NewUserRow> {
  password?: string;
  role?: Role;
  /**
   * An admin gets a TOTP factor with TEST_TOTP_SECRET unless this is false (ADR 054: admins need one); anyone else
   * gets one when it is true.
   */
  twoFactor?: boolean;
}

/** A valid, confirmed user row with a Russian name; every field can be overridden. */
export async function buildUser(overrides: UserOverrides = {}): Promise<NewUserRow> {
  const n = ++sequence;
  const unique = `${Date.now().toString(36)}${n}${randomBytes(2).toString('hex')}`;
  const name = overrides.name ?? pick(FIRST_NAMES, n);
  const surname = overrides.surname ?? pick(SURNAMES_M, n * 7) + (FEMALE.has(name) ? 'а' : '');
  const role = overrides.role ?? 'customer';
  const { password = DEFAULT_PASSWORD, role: _role, twoFactor: _twoFactor, ...rest } = overrides;
  return {
    userName: `user_${unique}`,
    email: `user_${unique}@example.com`,
    name,
    surname,
    passwordHash: await cachedHash(password),
    roles: role === 'admin' ? ['customer', 'admin'] : [role],
    activeRole: role,
    referralCode: newReferralCode(),
    emailConfirmedAt: new Date(),
    ...rest,
  };
}

/** A user as buildUser() makes them, who consented to the current consent text as a registration does (ADR 052). */
export async function createUser(db: Db, overrides: UserOverrides = {}): Promise<UserRow> {
  const values = await buildUser(overrides);
  const [row] = await inOwnMillisecond(() => db.insert(users).values(values).returning());
  await recordConsent(db, { userId: row!.id, ip: null, userAgent: null });
  if (overrides.twoFactor ?? row!.roles.includes('admin')) {
    await enrolTotp(db, row!.id, TEST_TOTP_SECRET);
    const [enrolled] = await db.select().from(users).where(eq(users.id, row!.id));
    return enrolled!;
  }
  return row!;
}

/** A file of `ownerId` as an upload records it (its bytes are not written), and its public url. */
export async function createFileRow(db: Db, ownerId: string, kind: 'png' | 'pdf' = 'png'): Promise<string> {
  const path = `${ownerId}/${randomBytes(16).toString('hex')}.${kind}`;
  await db.insert(files).values({ ownerId, path, originalName: `файл.${kind}`, mime: kind === 'png' ? 'image/png' : 'application/pdf', size: 1234 });
  return `/uploads/${path}`;
}
