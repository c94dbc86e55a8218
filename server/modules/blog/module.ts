import { defineModule } from '../../platform/module.ts';
import { BlogService } from './service.ts';
import { blogRoutes } from './routes.ts';
import { blogFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    blog: BlogService;
  }
}

export const blogModule = defineModule({
  name: 'blog',
  // The blog (ADR 037).
  create: ({ db, services: { platform } }) => ({ blog: new BlogService({ db, platform }) }),
  routes: (app, { services: { blog }, reads }) => app.register(blogRoutes, { blog, reads }),
  fileUses: blogFileUses,
});
