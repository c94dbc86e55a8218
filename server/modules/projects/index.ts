// Customers' projects: the listing, pages, the customer's own, moderation and the archive job.
export { archiveStaleProjects, ProjectService, type Presence } from './service.ts';
export { projectRoutes } from './routes.ts';
export { adminProjectRoutes } from './admin-routes.ts';
export { isPublicProject, isPublicProjectId, listedProject, projectPolicy, publicProject, PUBLIC_PROJECT_STATUSES } from './policy.ts';
export { projectFileUses } from './file-uses.ts';
export { projectsModule } from './module.ts';
export { projectRefs, type ProjectRefs } from './read-model.ts';
export { countBid, projectWithCustomer, startProject, uncountBid } from './ports.ts';
export { listedProjectCount, listedProjectLinks } from './sitemap.ts';
export { projectsOfPerson, hideProjectsOf } from './personal-data.ts';
