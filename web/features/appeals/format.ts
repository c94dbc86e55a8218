import type { ApiError } from '#contract/api';
import { APPEAL_MESSAGES, APPEAL_MIN_ANSWER, APPEAL_SUBJECTS, type AppealStatus, type AppealSubject } from '#contract/appeal-constants';

// How the appeals' pages show states, and the rules of their two forms (the author's new appeal, the admin's answer).

/** A state's badge tone (the items stylesheet's status-badge modifiers). */
export const APPEAL_STATUS_TONES: Record<AppealStatus, string> = {
  new: 'warning',
  in_progress: 'success',
  closed: 'muted',
};

/** Where the appeals tab is, with a prefilled form when a subject and an object are given. */
export const appealsPath = (subject?: string, object?: string) =>
  `/profile/disputes?tab=appeals${subject ? `&subject=${encodeURIComponent(subject)}` : ''}${object ? `&object=${encodeURIComponent(object)}` : ''}`;

const isSubject = (v: string | null): v is AppealSubject => v !== null && (APPEAL_SUBJECTS as readonly string[]).includes(v);

/**
 * The subject a new appeal's form opens with: the address's one when it is known and names its object (a question
 * names none), else a question to the administration.
 */
export const formSubject = (wanted: string | null, object: string | null): AppealSubject =>
  isSubject(wanted) && (wanted === 'question' || object) ? wanted : 'question';

/** Where the server's refusal of a new appeal is said. */
export interface AppealFormErrors {
  text?: string;
  files?: string;
  form?: string;
}

/**
 * The text's and the files' errors under their fields (a file's own error is keyed `files.<n>`); anything else (the
 * daily limit, an object gone meanwhile) above the button, and only when no field says what is wrong.
 */
export function appealFormErrors(error: Pick<ApiError, 'message' | 'errors'>): AppealFormErrors {
  const fields = error.errors ?? {};
  const files = Object.entries(fields).find(([k]) => k === 'files' || k.startsWith('files.'))?.[1]?.[0];
  const text = fields.text?.[0];
  return { text, files, form: text || files ? undefined : (fields.object?.[0] ?? error.message) };
}

/** The admin's answer checked before it is sent: an empty or too short one says so under the field (ADR 046). */
export function answerError(answer: string): string | null {
  const length = answer.trim().length;
  if (length >= APPEAL_MIN_ANSWER) return null;
  return length === 0 ? APPEAL_MESSAGES.answerEmpty : APPEAL_MESSAGES.answerTooShort;
}

/** The server's refusal of an answer: the answer's own error under the field, else the message above the button. */
export function answerRefusal(error: Pick<ApiError, 'message' | 'errors'>): { answer: string | null; problem: string | null } {
  const field = error.errors?.answer?.[0];
  return field ? { answer: field, problem: null } : { answer: null, problem: error.message };
}

/** The queue's count: the server stops counting past 10 000. */
export const foundText = (total: number) => `Найдено: ${total > 10_000 ? 'больше 10 000' : total}`;
