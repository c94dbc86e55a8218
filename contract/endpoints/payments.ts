import { defineEndpoints } from '../endpoint.ts';

/** Paying orders, the sandbox provider and its webhook, balances, ledger entries, withdrawals (tags payments, finance). */
export const paymentEndpoints = defineEndpoints({});
