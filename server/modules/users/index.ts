// A person's own account: profile, avatar, password, email, roles.
export { UserService } from './service.ts';
export { userRoutes } from './routes.ts';
export { presentMe } from './presenter.ts';
