import type { AppealStatus } from '#contract/appeal-constants';

// How the appeals' pages show states.

/** A state's badge tone (the items stylesheet's status-badge modifiers). */
export const APPEAL_STATUS_TONES: Record<AppealStatus, string> = {
  new: 'warning',
  in_progress: 'success',
  closed: 'muted',
};

/** Where the appeals tab is, with a prefilled form when a subject and an object are given. */
export const appealsPath = (subject?: string, object?: string) =>
  `/profile/disputes?tab=appeals${subject ? `&subject=${encodeURIComponent(subject)}` : ''}${object ? `&object=${encodeURIComponent(object)}` : ''}`;
