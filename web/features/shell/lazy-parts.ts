import { lazy } from 'react';
import { signedIn } from './signed-in-lazy.ts';

/** The logout confirmation, only ever shown to a signed-in person: loaded with the signed-in header (issue 11). */
export const LogoutModal = lazy(() => signedIn().then((m) => ({ default: m.LogoutModal })));
