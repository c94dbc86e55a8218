import { lazy } from 'react';

/** The consent gate, only ever shown to a signed-in person: a guest's pages never load it (ADR 020's budget). */
export const ConsentGate = lazy(() => import('./consent-gate.tsx').then((m) => ({ default: m.ConsentGate })));
