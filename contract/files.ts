import { z } from 'zod';

// Uploads (SPEC §7 POST/DELETE /api/files/single, GET /uploads/…): the answers and bodies shared by the server and
// the web app. The upload itself is multipart/form-data with one part named "file".

/** The answer to an upload: the stored file, addressed by its path (what other calls take) and its url. */
export const uploadedFileSchema = z.object({
  _id: z.string(),
  filePath: z.string(),
  url: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** A stored file as pages show it: its address and the name it was uploaded under (chat messages, attachments). */
export const fileInfoSchema = z.object({ url: z.string(), name: z.string(), mime: z.string(), size: z.number().int() });
export type FileInfo = z.infer<typeof fileInfoSchema>;

/** DELETE /api/files/single: an own file, by its stored path or its /uploads/ url. */
export const removeFileSchema = z.object({ filePath: z.string().max(500) });
export type RemoveFileBody = z.input<typeof removeFileSchema>;

/** GET /uploads/*: the stored path after /uploads/. */
export const storedFileParamsSchema = z.object({ '*': z.string() });
