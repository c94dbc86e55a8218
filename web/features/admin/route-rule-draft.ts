import type { ApiError } from '#contract/api';
import type { AdminRouteRule, RouteRuleKind } from '#contract/admin';

// The route rule form's draft (ADR 036): what it opens with, what it sends, where the server's refusal is said.

export const RULE_KIND_LABELS: Record<RouteRuleKind, string> = { redirect: 'Перенаправить', block: 'Закрыть (404)' };

export interface RuleDraft {
  path: string;
  kind: RouteRuleKind;
  target: string;
}

export const EMPTY_RULE: RuleDraft = { path: '', kind: 'redirect', target: '' };

/** A new rule's empty draft, or the rule being changed (a block has no target: its field opens empty). */
export const ruleDraft = (editing: AdminRouteRule | null): RuleDraft =>
  editing ? { path: editing.path, kind: editing.kind, target: editing.target ?? '' } : EMPTY_RULE;

/** What is sent: a block sends no target, even when one was typed before the kind changed. */
export const ruleBody = (draft: RuleDraft) => ({ path: draft.path, kind: draft.kind, target: draft.kind === 'redirect' ? draft.target : null });

/** The fields' errors, or the message under the form (`_`) when the answer names no field. */
export const ruleErrors = (error: Pick<ApiError, 'message' | 'errors'>): Record<string, string[]> => error.errors ?? { _: [error.message] };
