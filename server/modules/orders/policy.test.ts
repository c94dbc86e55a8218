import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/schema.ts';
import { HttpError } from '../../lib/http.ts';
import { SERVICE_STATUSES } from '../services/schema.ts';
import { ORDER_MESSAGES } from '#contract/orders';
import { checkoutPolicy, type CheckoutSubject } from './policy.ts';

// Who may order a service from its page (POST /api/orders): the checks that were inline in the command.

const person = (id: string) => ({ id, roles: ['customer', 'seller'], activeRole: 'customer', blockedAt: null }) as unknown as UserRow;
const seller = person('seller');
const buyer = person('buyer');
const subject = (status: CheckoutSubject['service']['status'], sellerBlocked = false): CheckoutSubject => ({
  service: { status, sellerId: seller.id },
  sellerBlocked,
});

/** The status and message authorize() answers with; 200 when it lets the actor through. */
function answer(run: () => unknown): [number, string?] {
  try {
    run();
    return [200];
  } catch (err) {
    if (err instanceof HttpError) return [err.statusCode, err.message];
    throw err;
  }
}

describe('checkoutPolicy', () => {
  it('lets anyone but the seller order an active service of a seller not blocked', () => {
    expect(answer(() => checkoutPolicy.authorize(buyer, 'order', subject('active')))).toEqual([200]);
  });

  it('hides a service that is not active, or whose seller is blocked, or that does not exist (404)', () => {
    for (const status of SERVICE_STATUSES.filter((s) => s !== 'active')) {
      expect(answer(() => checkoutPolicy.authorize(buyer, 'order', subject(status))), status).toEqual([404, ORDER_MESSAGES.serviceNotFound]);
    }
    expect(answer(() => checkoutPolicy.authorize(buyer, 'order', subject('active', true)))).toEqual([404, ORDER_MESSAGES.serviceNotFound]);
    expect(answer(() => checkoutPolicy.authorize(buyer, 'order', null))).toEqual([404, ORDER_MESSAGES.serviceNotFound]);
  });

  it('refuses the seller their own service, whatever its state (403)', () => {
    for (const status of SERVICE_STATUSES) {
      expect(answer(() => checkoutPolicy.authorize(seller, 'order', subject(status))), status).toEqual([403, ORDER_MESSAGES.ownService]);
    }
  });
});
