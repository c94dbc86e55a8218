import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { dashboardQuerySchema, dashboardSchema, referralPageSchema } from '../dashboard.ts';

const tags = ['dashboard'];

/** The signed-in person's own figures: the profile dashboard and the referral page (issue 13). */
export const dashboardEndpoints = defineEndpoints({
  'dashboard.mine': {
    access: 'user',
    tags,
    summary: "The person's figures of a period by day: earnings or spending, orders, service views; orders by state",
    query: dashboardQuerySchema,
    response: okSchema(dashboardSchema),
  },
  'referrals.mine': {
    access: 'user',
    tags,
    summary: "The person's referral code, the people they brought (no private data), the rewards from the ledger and totals",
    response: okSchema(referralPageSchema),
  },
});
