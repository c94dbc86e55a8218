import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { SeenToday } from '../../platform/listing/visitors.ts';
import type { SynonymGroups } from '../../platform/listing/search.ts';
import type { Tx, WithTx } from '../../platform/tx.ts';
import type { Realtime } from '../../realtime/socket.ts';

/** Who is connected right now (the real-time layer). */
export type Presence = Pick<Realtime, 'onlineAmong'>;

export interface ProjectServiceDeps {
  db: Db;
  presence: Presence;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
  log: Logger;
  /** Who was counted today (shared by instances in production); memory of this instance when absent. */
  seen?: SeenToday;
  /** The operator's synonym groups of the search (setting search.synonyms, ADR 028); none when absent. */
  synonyms?: () => Promise<SynonymGroups>;
}

/**
 * Called in the transaction that deletes a project, by the modules that keep something about it (favourites):
 * they subscribe (ProjectService.onRemoved), so projects needs to know none of them.
 */
export type ProjectRemoved = (tx: Tx, projectId: string) => Promise<unknown>;

/** What the projects module's commands and queries are given: the service's deps with `seen` settled. */
export type ProjectDeps = ProjectServiceDeps & { seen: SeenToday; removed: ProjectRemoved[] };

export interface Page<T> {
  result: T[];
  total: number;
  next: string | null;
}
