import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { appeals } from '../schema.ts';
import { people, type UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { APPEAL_MESSAGES, APPEAL_SUBJECT_LABELS, type answerAppealSchema } from '#contract/appeals';
import type { AppealServiceDeps } from '../deps.ts';
import { appealPolicy } from '../policy.ts';

/** Where the author reads their appeals (and the answer). */
export const MY_APPEALS_PATH = '/profile/disputes?tab=appeals';

const author = people('appeal_author');

/**
 * POST /api/admin/appeals/{id}/answer: an admin answers a new or taken appeal, which closes it; the author gets
 * the notification and the letter (`appeal.answered`) from the same transaction, once: a closed appeal is 409.
 */
export async function answerAppeal(deps: AppealServiceDeps, adminUser: UserRow, id: string, input: z.output<typeof answerAppealSchema>): Promise<void> {
  await deps.platform.withTx(userActor(adminUser), async (ctx) => {
    const [row] = await ctx.tx.select().from(appeals).where(eq(appeals.id, id)).for('update');
    const appeal = appealPolicy.authorize(adminUser, 'answer', row);
    if (appeal.status === 'closed') throw new HttpError(409, APPEAL_MESSAGES.alreadyClosed);
    const now = ctx.clock.now();
    await ctx.tx
      .update(appeals)
      .set({ status: 'closed', answer: input.answer, closedAt: now, adminId: appeal.adminId ?? adminUser.id, takenAt: appeal.takenAt ?? now })
      .where(eq(appeals.id, id));
    await audit(ctx.tx, {
      actorId: adminUser.id,
      action: 'appeal.answer',
      targetType: 'appeal',
      targetId: id,
      details: { number: appeal.number, author: appeal.authorId, answer: input.answer },
    });
    const [addressee] = await ctx.tx
      .select({ id: author.id, email: author.email, name: author.name, preferences: author.preferences })
      .from(author)
      .where(eq(author.id, appeal.authorId));
    if (addressee) {
      deps.letters.notify(ctx.outbox, addressee, 'appeal.answered', {
        number: appeal.number,
        subject: appeal.objectTitle ? `${APPEAL_SUBJECT_LABELS[appeal.subject]}: ${appeal.objectTitle}` : APPEAL_SUBJECT_LABELS[appeal.subject],
        answer: input.answer,
        path: MY_APPEALS_PATH,
      });
    }
  });
}
