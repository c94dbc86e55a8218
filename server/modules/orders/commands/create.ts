import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { orders, type OrderExtra } from '../schema.ts';
import { serviceForOrder, type ServiceForOrder } from '../../services/index.ts';
import { people, type UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES, ORDER_PACKAGE_LABELS, type OrderPackage, type createOrderSchema } from '#contract/orders';
import type { OrderServiceDeps } from '../deps.ts';
import { checkoutPolicy } from '../policy.ts';
import { awaitingPaymentSql } from '../state.ts';
import { openOrder } from './open.ts';

// The service page's «Заказать» (POST /api/orders): a service with a package (or its base offer) and extras.

/** Unpaid orders a customer may open per hour: nobody floods a seller with orders. */
export const UNPAID_ORDERS_PER_HOUR = 30;

type Input = z.output<typeof createOrderSchema>;

const seller = people('seller');
const customer = people('customer');

interface Terms {
  chosen: string | null;
  extras: OrderExtra[];
  price: number;
  days: number;
  revisions: number;
}

/** The order's terms: the package's (or the base offer's), with the chosen extras added. */
function termsOf(service: ServiceForOrder, input: Input): Terms {
  let base = { price: service.price, days: service.days, revisions: service.revisions };
  const chosen = input.package ?? null;
  if (chosen) {
    const pkg = service.packages.find((p) => p.kind === chosen);
    if (!pkg) throw new HttpError(400, ORDER_MESSAGES.noSuchPackage, { package: [ORDER_MESSAGES.noSuchPackage] });
    base = { price: pkg.price, days: pkg.days, revisions: pkg.revisions };
  }
  const extras = input.extras.map((i) => {
    const extra = service.extras[i];
    if (!extra) throw new HttpError(400, ORDER_MESSAGES.noSuchExtra, { extras: [ORDER_MESSAGES.noSuchExtra] });
    return { title: extra.title, price: extra.price, days: extra.days };
  });
  const price = base.price + extras.reduce((s, e) => s + e.price, 0);
  const days = base.days + extras.reduce((s, e) => s + e.days, 0);
  return { chosen, extras, price, days, revisions: base.revisions };
}

/** The customer's draft of this service with exactly these terms, if they have one. */
async function sameDraft(ctx: TxContext, customerId: string, serviceId: string, terms: Terms): Promise<string | null> {
  const [same] = await ctx.tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.customerId, customerId),
        eq(orders.serviceId, serviceId),
        awaitingPaymentSql,
        isNull(orders.bidId),
        terms.chosen ? eq(orders.package, terms.chosen) : isNull(orders.package),
        sql`${orders.extras} = ${JSON.stringify(terms.extras)}::jsonb`,
        eq(orders.price, terms.price),
        eq(orders.days, terms.days),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return same?.id ?? null;
}

/** Refused with 429 when the customer opened UNPAID_ORDERS_PER_HOUR orders awaiting payment in the last hour. */
async function capUnpaid(ctx: TxContext, customerId: string): Promise<void> {
  const hourAgo = new Date(ctx.clock.now().getTime() - 3_600_000);
  const [{ n } = { n: 0 }] = await ctx.tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.customerId, customerId), awaitingPaymentSql, gte(orders.createdAt, hourAgo)));
  if (n >= UNPAID_ORDERS_PER_HOUR) throw new HttpError(429, ORDER_MESSAGES.tooMany);
}

/** The order awaiting payment that the customer's choice makes (or the same draft again); answers its id. */
export async function createOrder(deps: Pick<OrderServiceDeps, 'db' | 'platform' | 'settings' | 'chat' | 'letters'>, user: UserRow, input: Input): Promise<string> {
  const service = await serviceForOrder(deps.db, input.service_id);
  const [sold] = service ? await deps.db.select({ blockedAt: seller.blockedAt }).from(seller).where(eq(seller.id, service.sellerId)).limit(1) : [];
  checkoutPolicy.authorize(user, 'order', service ? { service, sellerBlocked: !sold || sold.blockedAt !== null } : null);
  if (service!.status !== 'active') throw new HttpError(409, ORDER_MESSAGES.serviceInactive);
  const svc = service!;
  const terms = termsOf(svc, input);

  return deps.platform.withTx(userActor(user), async (ctx) => {
    // Under a lock of the customer's row, so that parallel requests neither make two drafts nor all slip under
    // the cap. (A lock through the read model locks the person's row: PostgreSQL applies it to the subquery's table.)
    await ctx.tx.select({ id: customer.id }).from(customer).where(eq(customer.id, user.id)).for('update');
    // «Заказать» again with the same choice gives back the draft it made (ADR 042); before the cap, so that the
    // cap never refuses a customer their own draft.
    const same = await sameDraft(ctx, user.id, svc.id, terms);
    if (same) return same;
    await capUnpaid(ctx, user.id);
    const title = terms.chosen ? `${svc.title} (${ORDER_PACKAGE_LABELS[terms.chosen as OrderPackage]})` : svc.title;
    const { order } = await openOrder(ctx, deps, {
      customerId: user.id,
      sellerId: svc.sellerId,
      serviceId: svc.id,
      title,
      package: terms.chosen,
      extras: terms.extras,
      price: terms.price,
      days: terms.days,
      revisions: terms.revisions,
    });
    return order.id;
  });
}
