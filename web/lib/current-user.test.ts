import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '#contract/api';

const read = vi.fn();
vi.mock('./api.ts', () => ({ api: { read: (...args: unknown[]) => read(...args) } }));
const { activeRole, setCurrentUser } = await import('./current-user.ts');

const person = (active_role: Me['active_role']) => ({ _id: 'u1', active_role }) as Me;

describe('activeRole', () => {
  beforeEach(() => {
    read.mockReset();
    setCurrentUser(null);
  });

  it('takes the role the shell has, without asking the server', async () => {
    setCurrentUser(person('seller'));
    expect(await activeRole()).toBe('seller');
    expect(read).not.toHaveBeenCalled();
  });

  it('asks the server afresh before the shell has rendered', async () => {
    read.mockResolvedValue({ result: person('customer') });
    expect(await activeRole()).toBe('customer');
    expect(read).toHaveBeenCalledWith('users.me', {}, { fresh: true });
  });

  it('fails as the server’s answer fails, for the page to show its error', async () => {
    read.mockRejectedValue(Object.assign(new Error('offline'), { status: 0 }));
    await expect(activeRole()).rejects.toThrow('offline');
  });
});
