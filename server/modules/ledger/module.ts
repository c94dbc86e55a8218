import { defineModule } from '../../platform/module.ts';

/** The ledger has no endpoints of its own: the money modules post to it, and `npm run ledger:check` audits it. */
export const ledgerModule = defineModule({ name: 'ledger' });
