import type { z } from 'zod';
import type { UserRow } from '../users/index.ts';
import { SeenToday } from '../../platform/listing/visitors.ts';
import type { AuditEntry } from '#contract/admin';
import type { AdminProject, adminProjectsQuerySchema, projectDecisionSchema } from '#contract/moderation';
import type { myProjectsQuerySchema, Project, projectsQuerySchema } from '#contract/catalog';
import { adminUpdateProject } from './commands/admin-update.ts';
import { createProject } from './commands/create.ts';
import type { ProjectInputData } from './commands/input.ts';
import { moderateProject } from './commands/moderate.ts';
import { removeProject } from './commands/remove.ts';
import { updateProject } from './commands/update.ts';
import type { Page, ProjectDeps, ProjectRemoved, ProjectServiceDeps } from './deps.ts';
import { listProjects } from './listing.ts';
import type { ProjectRecord } from './presenter.ts';
import { adminGetProject, adminListProjects, getProject, myProjects, publicProjectsByIds } from './queries.ts';
import { presentAdminProjects, presentProjectById, presentProjects } from './records.ts';

export type { AdminProject } from '#contract/moderation';
export type { Page, Presence, ProjectServiceDeps } from './deps.ts';
export { PROJECT_MESSAGES } from './commands/input.ts';
export { archiveStaleProjects, PROJECT_ARCHIVE_DAYS } from './jobs.ts';
export { PROJECT_SORT_KEYS } from './sort.ts';

/**
 * Customers' projects: publishing (at once, moderated afterwards), the public listing and page, the owner's list
 * and edits, the admin area's moderation; the archive job is jobs.ts. The face the routes and other modules call:
 * each change is a file of commands/, the reads are listing.ts and queries.ts.
 */
export class ProjectService {
  private readonly deps: ProjectDeps;

  constructor(deps: ProjectServiceDeps) {
    this.deps = { ...deps, seen: deps.seen ?? new SeenToday(null, deps.log), removed: [] };
  }

  // Reads

  /** Presents records with their customers' live online state. */
  present(records: ProjectRecord[]): Promise<Project[]> {
    return presentProjects(this.deps.presence, records);
  }

  /** GET /api/projects: active projects of customers in good standing, filtered, sorted, one keyset page. */
  list(query: z.output<typeof projectsQuerySchema>): Promise<Page<Project> & { total_exact: boolean; partial?: true }> {
    return listProjects(this.deps, query);
  }

  get(id: string, viewer: UserRow | null, visitor: string): Promise<Project> {
    return getProject(this.deps, id, viewer, visitor);
  }

  publicByIds(ids: string[]): Promise<Project[]> {
    return publicProjectsByIds(this.deps, ids);
  }

  mine(user: UserRow, query: z.output<typeof myProjectsQuerySchema>): Promise<Page<Project>> {
    return myProjects(this.deps, user, query);
  }

  // The customer's writes: each answers the project after it.

  async create(user: UserRow, input: ProjectInputData): Promise<Project> {
    return presentProjectById(this.deps, await createProject(this.deps, user, input));
  }

  async update(user: UserRow, id: string, input: ProjectInputData): Promise<Project> {
    return presentProjectById(this.deps, await updateProject(this.deps, user, id, input));
  }

  /** `listener` runs in the transaction that deletes a project. */
  onRemoved(listener: ProjectRemoved): void {
    this.deps.removed.push(listener);
  }

  remove(user: UserRow, id: string): Promise<void> {
    return removeProject(this.deps, user, id);
  }

  // Admin area

  adminList(query: z.output<typeof adminProjectsQuerySchema>): Promise<Page<AdminProject>> {
    return adminListProjects(this.deps, query);
  }

  adminGet(id: string): Promise<{ project: AdminProject; audit: AuditEntry[] }> {
    return adminGetProject(this.deps, id);
  }

  async decide(admin: UserRow, id: string, decision: z.output<typeof projectDecisionSchema>): Promise<AdminProject> {
    return this.presentAdminOne(await moderateProject(this.deps, admin, id, decision));
  }

  async adminUpdate(admin: UserRow, id: string, input: ProjectInputData): Promise<AdminProject> {
    return this.presentAdminOne(await adminUpdateProject(this.deps, admin, id, input));
  }

  private async presentAdminOne(record: ProjectRecord): Promise<AdminProject> {
    const [project] = await presentAdminProjects(this.deps.presence, [record]);
    return project!;
  }
}
