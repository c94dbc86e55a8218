// The app's frame: header, footer, menus, meta, route guards, the session and effects of the root route.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { currentUser } from './current-user.ts';
export { pageNotFound, requireAdmin, requireGuest, requireSignedIn } from './guards.ts';
export { ErrorScreen, LogoutModal } from './lazy-parts.ts';
export { DEFAULT_DESCRIPTION, descriptionOf, errorMeta, pageMeta } from './meta.ts';
export { currentPath } from './navigation-history.ts';
export { ADMIN_MENU, PAGE_TITLES, PROFILE_MENU } from './page-titles.ts';
export { logout } from './session.ts';
export { ShellEffects } from './shell-effects.tsx';
export { SiteChrome } from './site-chrome.tsx';
