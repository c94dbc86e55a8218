// The settings page's parts: the avatar editor and the lookups of the profile form.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { AvatarEditor } from './avatar-editor.tsx';
export { useLookups } from './use-lookups.ts';
