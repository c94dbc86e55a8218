// The letters module: one layout, one HTML escaping, every letter's builder and the preference check (ADR 014).
export { escapeHtml, renderLetter, type LetterContent } from './layout.ts';
export {
  CONFIRM_TOKEN_TTL_MS,
  RESET_TOKEN_TTL_MS,
  confirmationLetter,
  emailChangeLetter,
  orderEventLetter,
  type OrderLetterEvent,
  passwordResetLetter,
  projectDecisionLetter,
  serviceDecisionLetter,
  type LetterParams,
  type ProjectDecision,
  type ServiceDecision,
} from './builders.ts';
export { LETTER_KINDS, Letters, wantsEmail, type LetterData, type LetterKind, type Recipient } from './notify.ts';
