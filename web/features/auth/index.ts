// Signing in and registering: the sign-in call, the bot check, Russian texts of their errors, safe `from` targets.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { BotCheck } from './bot-check.tsx';
export { loginErrorText, registerErrorText, registerFieldErrors } from './messages.ts';
export { loginPath, safeTarget } from './safe-target.ts';
export { signIn, storedReferralCode } from './session-actions.ts';
