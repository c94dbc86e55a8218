import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { removeFileSchema, storedFileParamsSchema, uploadedFileSchema } from '../files.ts';

const tags = ['files'];

/** Uploads: one file per request, deleted by its owner, served to whoever may see it (ADR 010). */
export const fileEndpoints = defineEndpoints({
  'files.upload': {
    access: 'user',
    tags,
    summary: 'Upload one file (multipart field "file", at most 20 MB)',
    multipart: true,
    response: okSchema(uploadedFileSchema),
  },
  'files.remove': {
    access: 'user',
    tags,
    summary: 'Delete an own file, by its stored path or its /uploads/ url',
    body: removeFileSchema,
    response: okSchema(z.literal(true)),
  },
  // The file itself, not JSON: no response schema.
  'files.download': { access: 'public', tags, summary: 'A stored file, or a picture at 320/640/960 px as AVIF or WebP (<path>.w640.avif)', params: storedFileParamsSchema },
});
