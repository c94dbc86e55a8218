import type { UserRow } from '../../users/index.ts';
import { projects } from '../schema.ts';
import type { ProjectDeps } from '../deps.ts';
import { projectPolicy } from '../policy.ts';
import { resolveProjectInput, type ProjectInputData } from './input.ts';

/** POST /api/projects: published at once (moderated afterwards). The caller has a confirmed email. Answers its id. */
export async function createProject({ db }: ProjectDeps, user: UserRow, input: ProjectInputData): Promise<string> {
  projectPolicy.authorize(user, 'create', { customer: user });
  const values = await resolveProjectInput(db, user.id, input);
  const [row] = await db.insert(projects).values({ ...values, customerId: user.id }).returning({ id: projects.id });
  return row!.id;
}
