// The double-entry ledger (ADR 025): transfers posted in a command's transaction, balances, reconciliation.
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
