import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '#contract/api';

// SPEC §7: POST /api/disputes/ is the change whose errors are rethrown; every other change returns them.

const write = vi.fn();
vi.mock('../../lib/api.ts', () => ({ api: { write: (...args: unknown[]) => write(...args) } }));
const { openDispute } = await import('./dispute-form.tsx');

const body = {
  order_id: 'o',
  reason: 'not_delivered' as const,
  description: 'Работа не сдана в срок, связи нет.',
  files: [],
};

describe('openDispute', () => {
  beforeEach(() => write.mockReset());

  it('rethrows the server’s error to the caller', async () => {
    const error: ApiError = { status: 409, message: 'По заказу уже открыт спор' };
    write.mockResolvedValue({ error });
    await expect(openDispute(body)).rejects.toBe(error);
    expect(write).toHaveBeenCalledWith('disputes.create', { body });
  });

  it('answers the new dispute', async () => {
    write.mockResolvedValue({ data: { status: 200, result: { _id: 'd' } } });
    await expect(openDispute(body)).resolves.toEqual({ _id: 'd' });
  });
});
