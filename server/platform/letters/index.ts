// The letters module: one layout, one HTML escaping, every letter's builder and the preference check (ADR 014).
export { escapeHtml, renderLetter, withUnsubscribe, type LetterContent } from './layout.ts';
export { readUnsubscribeToken, unsubscribeToken } from './unsubscribe.ts';
export {
  CONFIRM_TOKEN_TTL_MS,
  bidAcceptedLetter,
  bidRejectedLetter,
  newBidLetter,
  RESET_TOKEN_TTL_MS,
  confirmationLetter,
  emailChangeLetter,
  orderEventLetter,
  type OrderLetterEvent,
  disputeEventLetter,
  type DisputeLetterEvent,
  passwordResetLetter,
  newDeviceLetter,
  type SignInDetails,
  paymentReceiptLetter,
  topUpReceiptLetter,
  projectDecisionLetter,
  serviceDecisionLetter,
  unreadMessagesLetter,
  withdrawalDecisionLetter,
  type LetterParams,
  type ProjectDecision,
  type ServiceDecision,
  type WithdrawalDecision,
} from './builders.ts';
export { LETTER_KINDS, Letters, wantsEmail, type LetterData, type LetterKind, type Notice, type Recipient } from './notify.ts';
