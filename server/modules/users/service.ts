import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { users, type Role, type UserRow } from './schema.ts';
import { cityExists, countryExists } from '../lookups/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { badRequest, forbidden } from '../../lib/http.ts';
import { ownedFile } from '../../platform/files.ts';
import { issueEmailToken } from '../../platform/email-tokens.ts';
import { CONFIRM_TOKEN_TTL_MS, type Letters } from '../../platform/letters/index.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import type { Tokens } from '../../lib/auth.ts';
import type { changeEmailSchema, changePasswordSchema, profileSchema } from '#contract/auth';
import { MESSAGES } from '#contract/messages';
import { accountPolicy } from './policy.ts';

/** What changing one's password or email asks of the auth module. */
export interface AccountChecks {
  checkCurrentPassword(user: UserRow, password: string, field: string): Promise<void>;
  /** Ends every session but `currentSession` (ADR 055); answers a fresh token for it. */
  endOtherSessions(user: UserRow, currentSession: string | null | undefined): Promise<string>;
  throttleLetters(userId: string): Promise<void>;
  /** A fresh second factor, when the person has one (ADR 054). */
  requireStepUp(user: UserRow, stepUp: string | null | undefined): Promise<void>;
}

export interface UserDeps {
  db: Db;
  /** The auth module's checks of an account's own password and letters (given by the manifest). */
  auth: AccountChecks;
  tokens: Tokens;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
}

/** A user's own account: profile, preferences, password, email, avatar and roles. */
export class UserService {
  constructor(private readonly deps: UserDeps) {}

  private async update(user: UserRow, set: PgUpdateSetSource<typeof users>): Promise<UserRow> {
    const [row] = await this.deps.db
      .update(users)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    return row!;
  }

  async updateProfile(user: UserRow, input: z.output<typeof profileSchema>): Promise<UserRow> {
    const { db } = this.deps;
    if (input.city && !(await cityExists(db, input.city))) {
      throw badRequest(MESSAGES.validation, { city: ['Выберите город из списка'] });
    }
    if (input.country && !(await countryExists(db, input.country))) {
      throw badRequest(MESSAGES.validation, { country: ['Выберите страну из списка'] });
    }
    // Merged in the database, so two updates at once (say, from two tabs) keep each other's changes.
    const p = input.preferences;
    const preferences = p
      ? sql`${users.preferences} || ${JSON.stringify(p.currency ? { currency: p.currency } : {})}::jsonb${
          p.emailNotifications
            ? sql` || jsonb_build_object('emailNotifications', coalesce(${users.preferences} -> 'emailNotifications', '{}'::jsonb) || ${JSON.stringify(p.emailNotifications)}::jsonb)`
            : sql``
        }`
      : undefined;
    return this.update(user, {
      name: input.name,
      surname: input.surname,
      about: input.about,
      cityId: input.city,
      countryId: input.country,
      preferences,
    });
  }

  /** Sets (a file the user uploaded) or removes the avatar. */
  async setAvatar(user: UserRow, filePath: string | null): Promise<UserRow> {
    if (filePath === null) return this.update(user, { avatar: null });
    const file = await ownedFile(this.deps.db, user.id, filePath);
    if (!file) throw forbidden();
    if (!file.mime.startsWith('image/')) throw badRequest('Аватар должен быть изображением');
    return this.update(user, { avatar: `/uploads/${file.path}` });
  }

  /** Changes the password, ends every other session and returns a fresh token for this one (ADR 055, 054). */
  async changePassword(user: UserRow, input: z.output<typeof changePasswordSchema>, currentSession?: string | null, stepUp?: string | null): Promise<string> {
    await this.deps.auth.requireStepUp(user, stepUp);
    await this.deps.auth.checkCurrentPassword(user, input.current_password, 'current_password');
    await this.update(user, { passwordHash: await hashPassword(input.password) });
    return this.deps.auth.endOtherSessions(user, currentSession);
  }

  /** Sends a confirmation link to the new address; the email changes when it is followed. */
  async requestEmailChange(user: UserRow, input: z.output<typeof changeEmailSchema>, stepUp?: string | null) {
    await this.deps.auth.requireStepUp(user, stepUp);
    await this.deps.auth.checkCurrentPassword(user, input.password, 'password');
    // Counted before the answer: "already registered" tells whether an address has an account, so it is limited
    // like the letters themselves.
    await this.deps.auth.throttleLetters(user.id);
    const [taken] = await this.deps.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${input.email}`);
    if (taken) throw badRequest(MESSAGES.emailExists, { email: [MESSAGES.emailExists] });
    await this.deps.withTx(userActor(user), async ({ tx, outbox }) => {
      const token = await issueEmailToken(tx, user.id, 'email_change', CONFIRM_TOKEN_TTL_MS, input.email);
      this.deps.letters.notify(outbox, user, 'account.emailChange', { token }, { to: input.email });
    });
  }

  /** Switches the interface between buying and selling; selling needs the seller role. */
  async switchRole(user: UserRow, role: Exclude<Role, 'admin'>): Promise<UserRow> {
    accountPolicy.authorize(user, 'switchRole', { role });
    const roles = user.roles.includes(role) ? user.roles : [...user.roles, role];
    return this.update(user, { roles, activeRole: role });
  }

  async becomeSeller(user: UserRow): Promise<UserRow> {
    const roles = user.roles.includes('seller') ? user.roles : [...user.roles, 'seller' as const];
    return this.update(user, { roles, activeRole: 'seller' });
  }
}
