// Moderation of services and projects: the queues, their tabs and the panel on an item's edit page.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { loadQueue } from './load-queue.ts';
export { ModerationPanel } from './moderation-panel.tsx';
export { ModerationQueue, type QueueRow } from './queue.tsx';
export { ProjectPreview, ServicePreview } from './preview.tsx';
export { PROJECT_TABS, SERVICE_TABS } from './tabs.ts';
