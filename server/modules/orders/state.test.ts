import { describe, expect, it } from 'vitest';
import { ORDER_MESSAGES, type OrderAction } from '#contract/orders';
import { ORDER_STATUSES } from '#contract/money';
import { ORDER_RULES, allowedActions, isDraft, isOpenPaid, refusalOf, type Moment, type OrderFacts, type Side } from './state.ts';

// The lifecycle's table (ADR 039), one test per row: each shows what the row allows and where it stops. The
// three ways of "free work by cancellation" of issue 25 are the rows of the customer's cancellation.

const MIN = 60_000;
const DAY = 86_400_000;
const PAID_AT = new Date('2026-11-23T10:00:00Z');
const CUSTOMER = '00000000-0000-4000-8000-00000000000c';
const SELLER = '00000000-0000-4000-8000-00000000000s';

const order = (o: Partial<OrderFacts> = {}): OrderFacts => ({
  customerId: CUSTOMER,
  sellerId: SELLER,
  status: 'in_progress',
  paidAt: PAID_AT,
  deadlineAt: new Date(PAID_AT.getTime() + 3 * DAY),
  deliveredAt: null,
  revisionsLeft: 1,
  cancelProposedBy: null,
  ...o,
});
/** `ms` after payment, with the default window of 20 minutes. */
const at = (ms: number): Moment => ({ now: new Date(PAID_AT.getTime() + ms), cancelWindowMinutes: 20 });
const delivered = (ms: number) => new Date(PAID_AT.getTime() + ms);

const may = (action: OrderAction, side: Side, facts: OrderFacts, moment = at(MIN)) =>
  expect(refusalOf(action, side, facts, moment)).toBeNull();
const refused = (action: OrderAction, side: Side, facts: OrderFacts, message: string, moment = at(MIN)) =>
  expect(refusalOf(action, side, facts, moment)).toBe(message);

/** One per row of ORDER_RULES, in its order. */
const ROW_TESTS: { action: OrderAction; run: () => void }[] = [
  {
    action: 'pay',
    run: () => {
      may('pay', 'customer', order({ status: 'awaiting_payment', paidAt: null, deadlineAt: null }));
      refused('pay', 'seller', order({ status: 'awaiting_payment' }), ORDER_MESSAGES.notAwaitingPayment);
      refused('pay', 'customer', order(), ORDER_MESSAGES.notAwaitingPayment);
    },
  },
  {
    action: 'deliver',
    run: () => {
      may('deliver', 'seller', order());
      may('deliver', 'seller', order({ deliveredAt: delivered(DAY) }), at(5 * DAY)); // again after a revision, even late
      refused(
        'deliver',
        'seller',
        order({ status: 'delivered', deliveredAt: delivered(DAY) }),
        ORDER_MESSAGES.notInProgress,
      );
      refused('deliver', 'seller', order({ status: 'disputed' }), ORDER_MESSAGES.disputed);
    },
  },
  {
    action: 'accept',
    run: () => {
      may('accept', 'customer', order({ status: 'delivered', deliveredAt: delivered(MIN) }));
      refused('accept', 'customer', order(), ORDER_MESSAGES.notDelivered);
    },
  },
  {
    action: 'revision',
    run: () => {
      may('revision', 'customer', order({ status: 'delivered', deliveredAt: delivered(MIN) }));
      refused(
        'revision',
        'customer',
        order({ status: 'delivered', deliveredAt: delivered(MIN), revisionsLeft: 0 }),
        ORDER_MESSAGES.noRevisionsLeft,
      );
    },
  },
  {
    action: 'cancel',
    run: () => {
      const unpaid = order({ status: 'awaiting_payment', paidAt: null, deadlineAt: null });
      may('cancel', 'customer', unpaid, at(10 * DAY));
      may('cancel', 'seller', unpaid, at(10 * DAY));
    },
  },
  {
    action: 'cancel',
    run: () => {
      // The seller at any time, delivered or not, late or not; it counts against them.
      may('cancel', 'seller', order(), at(MIN));
      may('cancel', 'seller', order({ status: 'delivered', deliveredAt: delivered(MIN) }), at(10 * DAY));
      refused('cancel', 'seller', order({ status: 'disputed' }), ORDER_MESSAGES.disputed);
      refused('cancel', 'seller', order({ status: 'completed' }), ORDER_MESSAGES.cannotCancel);
    },
  },
  {
    action: 'cancel',
    run: () => {
      may('cancel', 'customer', order(), at(19 * MIN));
      refused('cancel', 'customer', order(), ORDER_MESSAGES.cancelLater, at(20 * MIN));
      // Way 1: a quick delivery within the window closes it.
      refused(
        'cancel',
        'customer',
        order({ status: 'delivered', deliveredAt: delivered(5 * MIN) }),
        ORDER_MESSAGES.deliveredNoCancel,
        at(10 * MIN),
      );
      // A revision after it does not open it again.
      refused(
        'cancel',
        'customer',
        order({ deliveredAt: delivered(5 * MIN) }),
        ORDER_MESSAGES.deliveredNoCancel,
        at(10 * MIN),
      );
    },
  },
  {
    action: 'cancel',
    run: () => {
      may('cancel', 'customer', order(), at(3 * DAY));
      refused('cancel', 'customer', order(), ORDER_MESSAGES.cancelLater, at(3 * DAY - MIN));
      // Way 2: delivered on time, the deadline passes while the customer sits on it.
      refused(
        'cancel',
        'customer',
        order({ status: 'delivered', deliveredAt: delivered(DAY) }),
        ORDER_MESSAGES.deliveredNoCancel,
        at(4 * DAY),
      );
      // A revision requested, then the deadline passes: something was delivered, so a dispute, not a cancel.
      refused(
        'cancel',
        'customer',
        order({ deliveredAt: delivered(DAY) }),
        ORDER_MESSAGES.deliveredNoCancel,
        at(4 * DAY),
      );
      // Way 3: a dispute's time moved the deadline on (unfreezeAfterDispute), so the seller is not late yet.
      refused('cancel', 'customer', order({ deadlineAt: delivered(5 * DAY) }), ORDER_MESSAGES.cancelLater, at(4 * DAY));
    },
  },
  {
    action: 'propose_cancel',
    run: () => {
      may('propose_cancel', 'customer', order({ status: 'delivered', deliveredAt: delivered(MIN) }), at(10 * DAY));
      may('propose_cancel', 'seller', order());
      refused('propose_cancel', 'seller', order({ cancelProposedBy: CUSTOMER }), ORDER_MESSAGES.proposalPending);
      refused('propose_cancel', 'customer', order({ status: 'awaiting_payment' }), ORDER_MESSAGES.notPaid);
      refused('propose_cancel', 'customer', order({ status: 'disputed' }), ORDER_MESSAGES.disputed);
    },
  },
  {
    action: 'answer_cancel',
    run: () => {
      may(
        'answer_cancel',
        'seller',
        order({ status: 'delivered', deliveredAt: delivered(MIN), cancelProposedBy: CUSTOMER }),
      );
      may('answer_cancel', 'customer', order({ cancelProposedBy: SELLER }));
      refused('answer_cancel', 'customer', order({ cancelProposedBy: CUSTOMER }), ORDER_MESSAGES.noProposal);
      refused('answer_cancel', 'customer', order(), ORDER_MESSAGES.noProposal);
    },
  },
];

describe('ORDER_RULES', () => {
  it('has one test per row', () => {
    expect(ROW_TESTS.map((t) => t.action)).toEqual(ORDER_RULES.map((r) => r.action));
  });

  ORDER_RULES.forEach((row, i) => {
    it(`row ${i} (${row.action} by ${row.by.join(' or ')} from ${row.from.join(', ')}): ${row.why}`, () =>
      ROW_TESTS[i]!.run());
  });
});

describe('allowedActions', () => {
  it("are the card's buttons: what the table allows, in its order; nothing for anyone but a party", () => {
    expect(allowedActions(CUSTOMER, order(), at(MIN))).toEqual(['cancel', 'propose_cancel']);
    expect(allowedActions(SELLER, order(), at(MIN))).toEqual(['deliver', 'cancel', 'propose_cancel']);
    // Delivered within the window: no cancellation by the customer alone.
    expect(
      allowedActions(CUSTOMER, order({ status: 'delivered', deliveredAt: delivered(2 * MIN) }), at(3 * MIN)),
    ).toEqual(['accept', 'revision', 'propose_cancel']);
    expect(allowedActions(SELLER, order({ cancelProposedBy: CUSTOMER }), at(MIN))).toEqual([
      'deliver',
      'cancel',
      'answer_cancel',
    ]);
    expect(allowedActions('someone-else', order(), at(MIN))).toEqual([]);
  });
});

describe('where an order stands', () => {
  it('open and paid is in progress or delivered: the states the escrow holds the price in, the paid rows of the table', () => {
    const paid = ORDER_STATUSES.filter((status) => isOpenPaid({ status }));
    expect(paid).toEqual(['in_progress', 'delivered']);
    const paidRows = ORDER_RULES.filter((r) => r.action === 'propose_cancel').flatMap((r) => r.from);
    expect(paidRows).toEqual(paid);
  });

  it("a draft is a service's order never paid; an accepted bid's or offer's order and a stage never are", () => {
    const none = { bidId: null, offerId: null, headId: null, paidAt: null };
    expect(isDraft(none)).toBe(true);
    expect(isDraft({ ...none, paidAt: PAID_AT })).toBe(false);
    expect(isDraft({ ...none, bidId: 'bid' })).toBe(false);
    expect(isDraft({ ...none, offerId: 'offer' })).toBe(false);
    expect(isDraft({ ...none, headId: 'head' })).toBe(false);
  });
});
