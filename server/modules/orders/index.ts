// Orders: the service page's and an accepted bid's order, its lifecycle, its workspace chat (ADR 025).
export { OrderService, AUTO_ACCEPT_JOB, type OrderServiceDeps } from './service.ts';
export { orderRoutes } from './routes.ts';
export { orderPolicy, actionsFor } from './policy.ts';
export { awaitingPaymentSql, completedSql, isAwaitingPayment, isCompleted, isDisputed, isDraft, isOpenPaid } from './state.ts';
export { countByStatus, orderFactsOf, orderIdsOf, placedByDay, type OrderScope } from './stats.ts';
export { completedOrdersOf, orderCompletedAt, orderHeadline } from './ports.ts';
export { orderNameOf, orderNames, type NamedOrder } from './naming.ts';
export { lockOrder } from './commands/transition.ts';
export type { OpenOrderInput } from './commands/open.ts';
export { orderFileUses } from './file-uses.ts';
export { ordersModule } from './module.ts';
export { orderPaymentPort, type OrderLabel, type OrderPaymentPort, type OrderToPay } from './payment-port.ts';
export { orderRefs, type OrderRefs } from './read-model.ts';
export type { OrderExtra, OrderRow } from './schema.ts';
export type { EscrowRefund, RefundRoute } from './refund-route.ts';
export type { ReleaseRoute, SellerRelease } from './release-route.ts';
export { ordersOfPerson, openOrdersOf } from './personal-data.ts';
