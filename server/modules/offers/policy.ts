import { definePolicy, isAdmin, type Actor } from '../../platform/policy.ts';
import { OFFER_MESSAGES } from '#contract/offers';
import { ORDER_MESSAGES } from '#contract/order-constants';

// Who may do what with an order chat's offers (ADR 066): the order's parties see them; its seller makes, changes and
// withdraws them; its customer accepts them or asks for a change. The other party and admins are refused (403);
// anyone else does not learn the order exists (404), as the orders' policy answers.

export interface OfferSubject {
  order: { customerId: string; sellerId: string };
}

const sideOnly =
  (side: 'customer' | 'seller') =>
  (actor: Actor, { order }: OfferSubject) => {
    if (actor?.id === (side === 'customer' ? order.customerId : order.sellerId)) return 'allow' as const;
    if (actor?.id === order.customerId || actor?.id === order.sellerId || isAdmin(actor))
      return { forbidden: side === 'customer' ? OFFER_MESSAGES.customerOnly : OFFER_MESSAGES.sellerOnly };
    return 'hidden' as const;
  };

const view = (actor: Actor, { order }: OfferSubject) =>
  actor?.id === order.customerId || actor?.id === order.sellerId ? ('allow' as const) : ('hidden' as const);

/** An offer addressed by its id: an unknown or hidden one is «Предложение не найдено». */
export const offerPolicy = definePolicy<{ view: OfferSubject; make: OfferSubject; answer: OfferSubject }>(
  OFFER_MESSAGES.notFound,
  { view, make: sideOnly('seller'), answer: sideOnly('customer') },
);

/** An order's offers, addressed by the order (its list, a new offer): an unknown or hidden order is «Заказ не найден». */
export const orderOffersPolicy = definePolicy<{ view: OfferSubject; make: OfferSubject }>(ORDER_MESSAGES.notFound, {
  view,
  make: sideOnly('seller'),
});
