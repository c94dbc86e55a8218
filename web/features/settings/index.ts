// The settings page's parts: the avatar editor, the lookups of the profile form and the sessions' card.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { AvatarEditor } from './avatar-editor.tsx';
export { useLookups } from './use-lookups.ts';
export { SessionsCard } from './sessions-card.tsx';
