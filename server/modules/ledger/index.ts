// The double-entry ledger (ADR 025): transfers posted in a command's transaction, balances, reconciliation.
export { statementOf, type StatementLine } from './statement.ts';
export {
  accountCode,
  balanceOf,
  balancesOf,
  checkLedger,
  isOverdraft,
  postTransfer,
  requireBalance,
  transferPosted,
  type AccountRef,
  type Leg,
  type LedgerProblem,
  type LedgerReport,
  type TransferInput,
} from './ledger.ts';
export { ledgerModule } from './module.ts';
export {
  earningsByDay,
  escrowNetByDay,
  marketplaceMoneyByDay,
  paymentArrivals,
  referralRewardsOf,
  releasedFromEscrow,
  type DayAmount,
  type RewardEntry,
} from './queries.ts';
