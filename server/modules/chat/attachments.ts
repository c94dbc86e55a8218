import type { Db } from '../../db/client.ts';
import { badRequest, forbidden } from '../../lib/http.ts';
import { fileUrl, filesByPaths, parseFilePath } from '../../platform/files.ts';
import { CHAT_MESSAGES } from '#contract/chat';
import { mayAttach } from './policy.ts';

/** The attachments as stored urls, each one uploaded by `userId` (403 otherwise): chat.send's rule, and others'. */
export async function ownFiles(db: Db, userId: string, urls: string[]): Promise<string[]> {
  const keys = [...new Set(urls.map((u) => parseFilePath(u)))];
  if (keys.length === 0) return [];
  if (keys.some((k) => k === null)) throw badRequest(CHAT_MESSAGES.badFile, { files: [CHAT_MESSAGES.badFile] });
  const found = await filesByPaths(db, keys as string[]);
  if (keys.some((k) => !mayAttach(userId, found.get(k!)))) throw forbidden(CHAT_MESSAGES.notYourFile);
  return (keys as string[]).map(fileUrl);
}
