import { describe, expect, it } from 'vitest';
import type { AdminRouteRule } from '#contract/admin';
import { ROUTE_RULE_KINDS, ROUTE_RULE_MESSAGES } from '#contract/admin';
import { EMPTY_RULE, ruleBody, ruleDraft, ruleErrors, RULE_KIND_LABELS } from './route-rule-draft.ts';

const rule = (over: Partial<AdminRouteRule>): AdminRouteRule => ({
  _id: 'r1',
  path: '/old',
  kind: 'redirect',
  target: '/services',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
  ...over,
});

describe('RULE_KIND_LABELS', () => {
  it('names every kind', () => {
    expect(Object.keys(RULE_KIND_LABELS)).toEqual([...ROUTE_RULE_KINDS]);
    expect(RULE_KIND_LABELS.block).toBe('Закрыть (404)');
  });
});

describe('ruleDraft', () => {
  it('opens a new rule empty, as a redirect', () => {
    expect(ruleDraft(null)).toEqual({ path: '', kind: 'redirect', target: '' });
    expect(ruleDraft(null)).toBe(EMPTY_RULE);
  });
  it('opens a redirect with its target', () => {
    expect(ruleDraft(rule({}))).toEqual({ path: '/old', kind: 'redirect', target: '/services' });
  });
  it('opens a block with an empty target field', () => {
    expect(ruleDraft(rule({ kind: 'block', target: null, path: '/secret' }))).toEqual({ path: '/secret', kind: 'block', target: '' });
  });
});

describe('ruleBody', () => {
  it.each([
    [{ path: '/a', kind: 'redirect', target: '/b' }, { path: '/a', kind: 'redirect', target: '/b' }],
    [{ path: '/a', kind: 'redirect', target: '' }, { path: '/a', kind: 'redirect', target: '' }],
    [{ path: '/a', kind: 'redirect', target: 'https://example.com/x' }, { path: '/a', kind: 'redirect', target: 'https://example.com/x' }],
    // A target typed before switching to a block is not sent.
    [{ path: '/a', kind: 'block', target: '/b' }, { path: '/a', kind: 'block', target: null }],
    [{ path: '/a', kind: 'block', target: '' }, { path: '/a', kind: 'block', target: null }],
  ] as const)('%j → %j', (draft, body) => {
    expect(ruleBody(draft)).toEqual(body);
  });
  it('sends the path as typed (the server trims and checks it)', () => {
    expect(ruleBody({ path: ' /a ', kind: 'block', target: '' }).path).toBe(' /a ');
  });
});

describe('ruleErrors', () => {
  it('keeps the fields’ errors where the answer has them', () => {
    const errors = { path: [ROUTE_RULE_MESSAGES.badPath], target: [ROUTE_RULE_MESSAGES.targetNeeded] };
    expect(ruleErrors({ message: 'Проверьте поля', errors })).toBe(errors);
  });
  it.each([ROUTE_RULE_MESSAGES.pathTaken, ROUTE_RULE_MESSAGES.loop('/x'), ROUTE_RULE_MESSAGES.notFound])(
    'says «%s» under the form when no field is named',
    (message) => {
      expect(ruleErrors({ message })).toEqual({ _: [message] });
    },
  );
});
