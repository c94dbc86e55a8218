import { withoutControls } from '../../platform/listing/listing.ts';

// Text of a service as it is stored and searched.

/** Tags as stored: trimmed, single-spaced, lower case, each once. */
export const normalizeTags = (tags: readonly string[]) => [
  ...new Set(tags.map((t) => withoutControls(t).trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean)),
];

/** Text as stored: no NUL (PostgreSQL refuses it) nor other control characters but line breaks and tabs. */
// eslint-disable-next-line no-control-regex
export const storable = (text: string) => text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
export const oneLine = (text: string) => withoutControls(text).replace(/\s+/g, ' ').trim();
