import { lazy } from 'react';
import { signedIn } from './signed-in-lazy.ts';

/** The logout confirmation, only ever shown to a signed-in person: loaded with the signed-in header (issue 11). */
export const LogoutModal = lazy(() => signedIn().then((m) => ({ default: m.LogoutModal })));

/**
 * The error and "page not found" screen, loaded when a page fails (issue 11: a guest's pages rarely do). Without a
 * Suspense boundary: the server waits for it before the shell, and the browser keeps the server's HTML meanwhile.
 */
export const ErrorScreen = lazy(() => import('./error-screen.tsx').then((m) => ({ default: m.ErrorScreen })));
