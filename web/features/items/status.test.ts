import { describe, expect, it } from 'vitest';
import {
  isPublic,
  moderationActions,
  projectOwnerActions,
  publicPath,
  serviceOwnerActions,
  statusInfo,
} from './status.ts';

describe('item states', () => {
  it('names every service and project state in Russian', () => {
    expect(
      ['draft', 'moderation', 'active', 'rejected', 'paused', 'hidden'].map((s) => statusInfo('service', s).label),
    ).toEqual(['Черновик', 'На модерации', 'Активна', 'Отклонена', 'Приостановлена', 'Скрыта']);
    expect(statusInfo('project', 'in_progress').label).toBe('В работе');
    expect(statusInfo('project', 'weird').label).toBe('weird');
  });

  it('offers the owner what the server allows', () => {
    expect(serviceOwnerActions('draft')).toEqual(['edit', 'submit', 'delete']);
    expect(serviceOwnerActions('active')).toContain('pause');
    expect(serviceOwnerActions('paused')).toContain('resume');
    expect(serviceOwnerActions('hidden')).toEqual(['delete']);
    expect(projectOwnerActions('active')).toEqual(['edit', 'delete']);
    expect(projectOwnerActions('in_progress')).toEqual([]);
    expect(projectOwnerActions('closed')).toEqual([]);
    expect(projectOwnerActions('hidden')).toEqual(['delete']);
  });

  it('offers the moderator the transitions of the state', () => {
    expect(moderationActions('service', 'moderation')).toEqual(['approve', 'reject', 'hide']);
    expect(moderationActions('service', 'active')).toEqual(['hide']);
    expect(moderationActions('service', 'rejected')).toEqual(['hide']);
    expect(moderationActions('service', 'hidden')).toEqual(['restore']);
    expect(moderationActions('project', 'active')).toEqual(['hide']);
    expect(moderationActions('project', 'hidden')).toEqual(['restore']);
  });

  it('links public items by category slug', () => {
    expect(publicPath('service', { _id: 'a1', category: 'design' })).toBe('/services/design/a1');
    expect(publicPath('project', { _id: 'b2', category: 'it' })).toBe('/projects/it/b2');
    expect(isPublic('service', 'paused')).toBe(false);
    expect(isPublic('project', 'closed')).toBe(true);
  });
});
