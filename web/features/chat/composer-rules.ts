import type { ApiError } from '#contract/api';
import { MAX_MESSAGE_FILES } from '#contract/chat-constants';

// The composer's rules (SPEC §4 "Messages"): how many picked files fit, when a message may be sent, what a failed
// send says, which key sends.

/** An attached file: uploading (no url yet), uploaded (its url) or failed. */
export interface AttachmentState {
  url?: string;
  failed?: boolean;
}

/** Of `picked` files, how many fit beside the `attached` ones, and whether some were left out. */
export function filesThatFit(attached: number, picked: number): { take: number; tooMany: boolean } {
  const room = MAX_MESSAGE_FILES - attached;
  return { take: Math.max(0, Math.min(picked, room)), tooMany: picked > room };
}

/** Whether an upload is still running, and the uploaded files' addresses. */
export function attachmentsOf(files: readonly AttachmentState[]): { uploading: boolean; ready: string[] } {
  return { uploading: files.some((f) => !f.url && !f.failed), ready: files.filter((f) => f.url).map((f) => f.url!) };
}

/** A message may go when nothing is sending or uploading and it has words or an uploaded file. */
export const canSendMessage = (o: { sending: boolean; uploading: boolean; text: string; ready: number }) =>
  !o.sending && !o.uploading && (o.text.trim().length > 0 || o.ready > 0);

/**
 * SPEC §8 «Не удалось создать сообщение», with the server's reason when it refused the message itself (a 4xx with
 * a message: too many messages, a blocked person, …); a server error or a lost connection says only the first part.
 */
export function sendFailureText(error: Pick<ApiError, 'status' | 'message'> | undefined): string {
  const reason = error && error.status >= 400 && error.status < 500 && error.message ? ` ${error.message}` : '';
  return `Не удалось создать сообщение.${reason}`.replace(/\.$/, '');
}

/** Enter sends; Shift+Enter is a new line, and Enter that ends an input method's composition is not a send. */
export const sendsOnEnter = (e: { key: string; shiftKey: boolean; isComposing: boolean }) => e.key === 'Enter' && !e.shiftKey && !e.isComposing;
