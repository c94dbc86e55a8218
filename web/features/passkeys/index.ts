// Passkeys (ADR 057): the settings card and the ceremonies (the browser library is loaded on demand).
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { PasskeysCard } from './passkeys-card.tsx';
export { passkeysSupported, usePasskeysSupported, signInWithPasskey, stepUpWithPasskey } from './webauthn.ts';
