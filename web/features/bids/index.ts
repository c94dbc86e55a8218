// Bids on projects: the project page's section (lazy), /profile/bids, /admin/bids, the header's flag.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017). Nothing here
// runs on import: the project page of a guest imports this file and must stay as light as it was.
import { lazy } from 'react';

/** The signed-in bid section of a project page, in a chunk of its own. */
export const ProjectBids = lazy(() => import('./project-bids.tsx'));
export { useBidsFlag } from './flag.ts';
export { AdminBids, loadAdminBids, type AdminBidsData } from './admin-bids.tsx';
export { loadMyBids, MyBids, type BidsPageData } from './my-bids.tsx';
/** The editor of a job's stages (ADR 065), shared with the order chat's offers (ADR 066); in a chunk of its own. */
export const StagesEditor = lazy(() => import('./stages-editor.tsx').then((m) => ({ default: m.StagesEditor })));
export type { StageDraft } from './bid-rules.ts';
