// Accounts: registration, sign-in, confirmation, recovery, sessions, the second factor.
export { AuthService } from './service.ts';
export { SessionService, type ClientInfo, type IssueOptions } from './sessions.ts';
export { authRoutes } from './routes.ts';
export { authModule } from './module.ts';
export { TwoFactorService, enrolTotp } from './two-factor.ts';
export { codeAt } from './totp.ts';
// The tests' and fixtures' factor: the factories' admins' secret, codes and tokens without a round trip.
export { TEST_TOTP_SECRET, challengeFor, freshCode, stepUpTokenFor } from './testing.ts';
