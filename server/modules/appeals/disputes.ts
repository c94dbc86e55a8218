import type { UserRow } from '../users/index.ts';

export interface DisputeTarget {
  title: string;
  /** Where the person sees it, and where an admin does. */
  path: string;
  adminPath: string;
}

/** What appeals need of the disputes module (passed in by the app, so neither module imports the other). */
export interface DisputeTitles {
  /** The dispute's title when this person may see it (a party of its order, or an admin), else null. */
  titleFor(user: UserRow, id: string): Promise<string | null>;
}

/** The dispute an objection names, when the person may see it; null answers 404. */
export async function disputeVisibleTo(disputes: DisputeTitles, user: UserRow, id: string): Promise<DisputeTarget | null> {
  const title = await disputes.titleFor(user, id);
  return title ? { title, path: '/profile/disputes', adminPath: '/admin/disputes' } : null;
}
