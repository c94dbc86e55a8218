// Payments: the payment page, the sandbox provider's page, finance, the payments lists and the admin's money.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { AdminWithdrawals, PaymentMethodsEditor } from './admin.tsx';
export { PaymentDifferences, ProviderState } from './differences.tsx';
export { methodDrafts, methodsFromDrafts, type MethodDrafts } from './method-drafts.ts';
export { Balances, EntriesTable } from './finance.tsx';
export { WithdrawForm } from './withdraw-form.tsx';
export { TopUpForm, TopUpsList } from './top-up-form.tsx';
export { DealPayouts } from './deal-payouts.tsx';
export { SelfEmployedForm } from './self-employed.tsx';
export { PaymentsTable, WithdrawalsTable } from './lists.tsx';
export { PayPanel } from './pay-panel.tsx';
export { payCrumb, payTitle, type PayStage } from './pay-logic.ts';
export { SandboxPage, type SandboxPayment } from './sandbox.tsx';
export { METHOD_LABELS, PAYMENT_STATUS_LABELS, WITHDRAWAL_STATUS_LABELS } from './labels.ts';
