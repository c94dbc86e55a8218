import { describe, expect, it } from 'vitest';
import { LIVE_KINDS } from '../../../web/lib/live-refresh.ts';
import { LETTER_KINDS } from './notify.ts';

// The pages that refresh on notifications (web/lib/live-refresh.ts, ADR 044) name kinds by string: each must be a
// kind that makes an in-app notification, or the page would wait for an event that never comes.
describe('LIVE_KINDS', () => {
  it('names only kinds that have an in-app notification', () => {
    const withNotice = Object.entries(LETTER_KINDS).flatMap(([kind, def]) =>
      'notice' in def && def.notice ? [kind] : [],
    );
    for (const kinds of Object.values(LIVE_KINDS)) for (const kind of kinds) expect(withNotice, kind).toContain(kind);
  });
});
