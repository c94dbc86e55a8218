// Signing in and registering: the sign-in call, the bot check, Russian texts of their errors (safe `from` targets
// are a session helper in web/lib).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { BotCheck } from './bot-check.tsx';
export { loginErrorText, registerErrorText, registerFieldErrors } from './messages.ts';
export { NextSteps } from './next-steps.tsx';
export { signIn, storedReferralCode } from './session-actions.ts';
