import type { z } from 'zod';
import type { UserRow } from '../users/index.ts';
import type {
  adminAppealsQuerySchema,
  answerAppealSchema,
  Appeal,
  AppealSubject,
  AppealTarget,
  createAppealSchema,
  myAppealsQuerySchema,
} from '#contract/appeals';
import { answerAppeal } from './commands/answer.ts';
import { createAppeal } from './commands/create.ts';
import { takeAppeal } from './commands/take.ts';
import type { AppealServiceDeps, Page } from './deps.ts';
import { appealTarget } from './objects.ts';
import { adminListAppeals, getAppeal, myAppeals, viewAppeal } from './queries.ts';

export type { AppealServiceDeps } from './deps.ts';
export { MY_APPEALS_PATH } from './commands/answer.ts';

/**
 * Appeals to the administration (issue 14, ADR 035): a member writes one about an object they may see (or a general
 * question), within the daily limits; an admin takes it and answers it, which closes it and tells the author by a
 * notification and a letter in the same transaction. The face the routes call: each change is a file of commands/,
 * the reads are queries.ts, the object an appeal names is objects.ts.
 */
export class AppealService {
  constructor(private readonly deps: AppealServiceDeps) {}

  /** GET /api/appeals/target: what a prefilled form names, checked as a create would. */
  target(user: UserRow, query: { subject: AppealSubject; object?: string | undefined }): Promise<AppealTarget> {
    return appealTarget(this.deps, user, query);
  }

  // Reads

  mine(user: UserRow, query: z.output<typeof myAppealsQuerySchema>): Promise<Page<Appeal>> {
    return myAppeals(this.deps, user, query);
  }

  get(user: UserRow, id: string): Promise<Appeal> {
    return getAppeal(this.deps, user, id);
  }

  adminList(query: z.output<typeof adminAppealsQuerySchema>): Promise<Page<Appeal>> {
    return adminListAppeals(this.deps, query);
  }

  /** GET /api/admin/appeals/{id}. */
  adminGet(adminUser: UserRow, id: string): Promise<Appeal> {
    return viewAppeal(this.deps, id, adminUser, true);
  }

  // Commands: each answers the appeal after it.

  async create(user: UserRow, ip: string, input: z.output<typeof createAppealSchema>): Promise<Appeal> {
    return viewAppeal(this.deps, await createAppeal(this.deps, user, ip, input), user, false);
  }

  async take(adminUser: UserRow, id: string): Promise<Appeal> {
    await takeAppeal(this.deps, adminUser, id);
    return viewAppeal(this.deps, id, adminUser, true);
  }

  async answer(adminUser: UserRow, id: string, input: z.output<typeof answerAppealSchema>): Promise<Appeal> {
    await answerAppeal(this.deps, adminUser, id, input);
    return viewAppeal(this.deps, id, adminUser, true);
  }
}
