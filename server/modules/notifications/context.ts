import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Realtime } from '../../realtime/socket.ts';

export interface NotificationDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Pick<Realtime, 'onlineAmong'>;
  /** Signs the unsubscribe links (the letters module's secret). */
  secret: string;
  log: Logger;
}
