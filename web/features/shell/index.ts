// The app's frame: header, footer, menus, the logout and effects of the root route (the guards, the meta and the
// signed-in user are session helpers in web/lib).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { ErrorScreen, LogoutModal } from './lazy-parts.ts';
export { currentPath } from './navigation-history.ts';
export { ADMIN_MENU, PAGE_TITLES, PROFILE_MENU } from './page-titles.ts';
export { logout } from './session.ts';
export { ShellEffects } from './shell-effects.tsx';
export { SiteChrome } from './site-chrome.tsx';
