import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/schema.ts';
import { HttpError } from '../../lib/http.ts';
import { SERVICE_STATUSES } from './schema.ts';
import { isPublicService, servicePolicy, type ServiceSubject } from './policy.ts';

const person = (id: string, extra: Partial<UserRow> = {}) => ({ id, roles: ['customer', 'seller'], activeRole: 'seller', blockedAt: null, ...extra }) as UserRow;
const owner = person('owner');
const other = person('other');
const admin = person('admin', { roles: ['customer', 'admin'] });
const service = (status: ServiceSubject['service']['status'], seller: UserRow = owner): ServiceSubject => ({ service: { status }, seller });

/** The status authorize() answers with, 200 when it lets the actor through. */
function statusOf(run: () => unknown): number {
  try {
    run();
    return 200;
  } catch (err) {
    if (err instanceof HttpError) return err.statusCode;
    throw err;
  }
}

describe('servicePolicy', () => {
  it('public means active and of a visible seller, nothing else', () => {
    for (const status of SERVICE_STATUSES) expect(isPublicService(service(status)), status).toBe(status === 'active');
    expect(isPublicService(service('active', person('owner', { blockedAt: new Date() })))).toBe(false);
  });

  it('view: the public service for all; any other state for its owner and admins only (404 for the rest)', () => {
    for (const status of SERVICE_STATUSES) {
      const row = service(status);
      const expected = status === 'active' ? 200 : 404;
      expect(statusOf(() => servicePolicy.authorize(null, 'view', row)), `guest ${status}`).toBe(expected);
      expect(statusOf(() => servicePolicy.authorize(other, 'view', row)), `other ${status}`).toBe(expected);
      expect(statusOf(() => servicePolicy.authorize(owner, 'view', row)), `owner ${status}`).toBe(200);
      expect(statusOf(() => servicePolicy.authorize(admin, 'view', row)), `admin ${status}`).toBe(200);
    }
    expect(statusOf(() => servicePolicy.authorize(admin, 'view', null))).toBe(404);
  });

  it('change: the owner only; 403 for those who can see it, 404 for those who cannot', () => {
    for (const status of SERVICE_STATUSES) {
      const row = service(status);
      expect(statusOf(() => servicePolicy.authorize(owner, 'change', row)), `owner ${status}`).toBe(200);
      expect(statusOf(() => servicePolicy.authorize(other, 'change', row)), `other ${status}`).toBe(status === 'active' ? 403 : 404);
      expect(statusOf(() => servicePolicy.authorize(admin, 'change', row)), `admin ${status}`).toBe(403);
    }
  });

  it('create: a seller in the seller mode, for themself', () => {
    expect(statusOf(() => servicePolicy.authorize(owner, 'create', { seller: owner }))).toBe(200);
    expect(statusOf(() => servicePolicy.authorize(person('c', { activeRole: 'customer' }), 'create', { seller: person('c', { activeRole: 'customer' }) }))).toBe(403);
    expect(statusOf(() => servicePolicy.authorize(other, 'create', { seller: owner }))).toBe(403);
  });
});
