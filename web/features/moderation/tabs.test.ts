import { describe, expect, it } from 'vitest';
import { PROJECT_TABS, SERVICE_TABS, queueQuery } from './tabs.ts';

const url = (search: string) => new URL(`http://x/admin/services${search}`);

describe('queueQuery', () => {
  it('opens the services queue on moderation', () => {
    expect(queueQuery(url(''), SERVICE_TABS, 'moderation')).toEqual({
      tab: 'moderation',
      query: { status: 'moderation' },
    });
  });

  it('sends no status for "all" and passes search and cursor', () => {
    expect(queueQuery(url('?status=all&q=%20логотип%20&cursor=abc'), SERVICE_TABS, 'moderation')).toEqual({
      tab: 'all',
      query: { q: 'логотип', cursor: 'abc' },
    });
  });

  it('falls back to the default for an unknown or foreign state', () => {
    expect(queueQuery(url('?status=in_progress'), SERVICE_TABS, 'moderation').tab).toBe('moderation');
    expect(queueQuery(url('?status=in_progress'), PROJECT_TABS, 'active').tab).toBe('in_progress');
    expect(queueQuery(url('?status=<script>'), PROJECT_TABS, 'active').query).toEqual({ status: 'active' });
  });
});
