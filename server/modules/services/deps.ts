import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { WithTx } from '../../platform/tx.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { SeenToday } from '../../platform/listing/visitors.ts';
import type { SynonymGroups } from '../../platform/listing/search.ts';
import type { serviceInputSchema, servicesQuerySchema, serviceStatusActionSchema } from '#contract/catalog';

// What the commands and queries of services are given, and the inputs they take.

export interface ServiceCatalogDeps {
  db: Db;
  /** Where the catalogue's named statements run, each planned once (Database.plannedOnce); `db` when absent. */
  plannedOnce?: Db;
  realtime: Pick<Realtime, 'onlineAmong'>;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
  log: Logger;
  /** Who was counted today (shared by instances in production); memory of this instance when absent. */
  seen?: SeenToday;
  /** The operator's synonym groups of the search (setting search.synonyms, ADR 028); none when absent. */
  synonyms?: () => Promise<SynonymGroups>;
  /** The operator's minimum price of a service and of each package, kopecks (setting services.minPrice). */
  minPrice?: () => Promise<number>;
}

export type ServicesQuery = z.output<typeof servicesQuerySchema>;
export type ServiceInputData = z.output<typeof serviceInputSchema>;
export type ServiceStatusAction = z.output<typeof serviceStatusActionSchema>['action'];
