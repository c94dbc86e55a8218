// Accounts: registration, sign-in, confirmation, recovery, sessions.
export { AuthService } from './service.ts';
export { authRoutes } from './routes.ts';
export { authModule } from './module.ts';
