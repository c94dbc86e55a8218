// Accounts: registration, sign-in, confirmation, recovery, sessions.
export { AuthService } from './service.ts';
export { SessionService, type ClientInfo, type IssueOptions } from './sessions.ts';
export { authRoutes } from './routes.ts';
export { authModule } from './module.ts';
