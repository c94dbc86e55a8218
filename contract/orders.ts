// Orders (ADR 025): the answers and requests of the orders endpoints (contract/endpoints/orders.ts) and the
// Russian messages of the orders module.

export const ORDER_MESSAGES = {
  notFound: 'Заказ не найден',
  notAwaitingPayment: 'Заказ уже оплачен или отменён',
} as const;
