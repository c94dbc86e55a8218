import type { Db } from '../../db/client.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { DisputeTitles } from './disputes.ts';

/** What the appeals module's commands and queries are given (app.ts builds it once). */
export interface AppealServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  /** The disputes module's titles, for objections to a dispute decision. */
  disputes: DisputeTitles;
}

export type Page<T> = { result: T[]; total: number; next: string | null };

export const DAY_MS = 86_400_000;
