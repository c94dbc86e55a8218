// In-app notifications (ADR 030): the header's bell with its live count, /profile/notifications, /unsubscribe.
// The feature's public face (ESLint, docs/decisions/017). Nothing here runs on import; the header's part is imported
// only by the signed-in header's lazy chunk, so a guest's pages never load it.
export { HeaderNotificationsLink } from './header-link.tsx';
export { NotificationsList, type NotificationsPageData } from './notifications-list.tsx';
export { Unsubscribe, type UnsubscribeData } from './unsubscribe.tsx';
export { useUnreadNotifications } from './store.ts';
export { unreadText } from './list.ts';
