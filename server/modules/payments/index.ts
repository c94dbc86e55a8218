// Payments: the ways to pay, paying orders into escrow, providers and webhooks, balances, withdrawals (ADR 025).
export { paymentRatesRoutes } from './rates-routes.ts';
export { PaymentService, type PaymentServiceDeps } from './service.ts';
export { paymentRoutes } from './routes.ts';
export { paymentsModule } from './module.ts';
export { pendingWithdrawals } from './admin-stats.ts';
export { payoutPort, type PayoutPort, type SavedPayoutMethod } from './payout-port.ts';
export { forgetSelfEmployedOf } from './personal-data.ts';
