import { and, eq, gte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { appeals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { badRequest, HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { ownedFile } from '../../../platform/files.ts';
import { MESSAGES } from '#contract/messages';
import { APPEAL_MESSAGES, type createAppealSchema } from '#contract/appeals';
import { DAY_MS, type AppealServiceDeps } from '../deps.ts';
import { resolveAppealObject } from '../objects.ts';

/**
 * POST /api/appeals: the object is checked (resolve), the files must be the author's own uploads, and the
 * author and the address may not have written appeals.perDay / appeals.perAddressPerDay in the last 24 hours
 * (counted in the table under a lock of each, so parallel requests cannot all pass). Answers its id.
 */
export async function createAppeal(deps: AppealServiceDeps, user: UserRow, ip: string, input: z.output<typeof createAppealSchema>): Promise<string> {
  const object = await resolveAppealObject(deps, user, input.subject, input.object);
  const owned = await Promise.all(input.files.map((path) => ownedFile(deps.db, user.id, path)));
  if (owned.some((f) => !f)) throw badRequest(MESSAGES.validation, { files: [APPEAL_MESSAGES.notYourFile] });
  return deps.platform.withTx(userActor(user), async (ctx) => {
    const settings = await deps.settings.all(ctx.tx);
    const since = new Date(ctx.clock.now().getTime() - DAY_MS);
    await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`appeals:user:${user.id}`}))`);
    await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`appeals:ip:${ip}`}))`);
    const [counts] = await ctx.tx
      .select({
        mine: sql<number>`count(*) filter (where ${appeals.authorId} = ${user.id})::int`,
        address: sql<number>`count(*) filter (where ${appeals.ip} = ${ip})::int`,
      })
      .from(appeals)
      .where(and(gte(appeals.createdAt, since), or(eq(appeals.authorId, user.id), eq(appeals.ip, ip))));
    if (Number(counts?.mine ?? 0) >= settings['appeals.perDay'] || Number(counts?.address ?? 0) >= settings['appeals.perAddressPerDay']) {
      throw new HttpError(429, APPEAL_MESSAGES.tooMany);
    }
    const [created] = await ctx.tx
      .insert(appeals)
      .values({
        authorId: user.id,
        subject: input.subject,
        objectType: object?.type ?? null,
        objectId: object?.id ?? null,
        objectTitle: object?.title ?? null,
        objectPath: object?.path ?? null,
        objectAdminPath: object?.adminPath ?? null,
        text: input.text,
        files: owned.map((f) => `/uploads/${f!.path}`),
        ip,
        createdAt: ctx.clock.now(),
      })
      .returning({ id: appeals.id });
    return created!.id;
  });
}
