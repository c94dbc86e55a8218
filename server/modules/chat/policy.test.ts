import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/schema.ts';
import { HttpError } from '../../lib/http.ts';
import { CHAT_MESSAGES } from '#contract/chat';
import { chatPolicy, mayAttach, messagePolicy, recipientPolicy, writesContactsUnmasked } from './policy.ts';

const person = (id: string, extra: Partial<UserRow> = {}) => ({ id, roles: ['customer', 'seller'], activeRole: 'seller', blockedAt: null, ...extra }) as UserRow;
const member = person('member');
const other = person('other');
const admin = person('admin', { roles: ['customer', 'admin'] });

/** The status and message authorize() answers with; 200 when it lets the actor through. */
function answerOf(run: () => unknown): [number, string?] {
  try {
    run();
    return [200];
  } catch (err) {
    if (err instanceof HttpError) return [err.statusCode, err.message];
    throw err;
  }
}

describe('chatPolicy', () => {
  it('takePart: members only; anyone else, admins included, 403 with the reason; an unknown chat 404', () => {
    expect(answerOf(() => chatPolicy.authorize(member, 'takePart', { member: 'member' }))).toEqual([200]);
    for (const actor of [other, admin, null]) {
      expect(answerOf(() => chatPolicy.authorize(actor, 'takePart', { member: null }))).toEqual([403, CHAT_MESSAGES.notMember]);
    }
    expect(answerOf(() => chatPolicy.authorize(member, 'takePart', null))).toEqual([404, CHAT_MESSAGES.chatNotFound]);
  });
});

describe('messagePolicy', () => {
  const message = (senderId: string, seenBy: string | null, visible = true) => ({ message: { senderId }, member: seenBy, visible });

  it("markSeen: a member marks others' messages they see", () => {
    expect(answerOf(() => messagePolicy.authorize(member, 'markSeen', message('other', 'member')))).toEqual([200]);
  });

  it('refuses a non-member (403), a message hidden by their deletion or unknown (404), their own message (403)', () => {
    expect(answerOf(() => messagePolicy.authorize(admin, 'markSeen', message('other', null)))).toEqual([403, CHAT_MESSAGES.notMember]);
    expect(answerOf(() => messagePolicy.authorize(member, 'markSeen', message('other', 'member', false)))).toEqual([404, CHAT_MESSAGES.messageNotFound]);
    expect(answerOf(() => messagePolicy.authorize(member, 'markSeen', null))).toEqual([404, CHAT_MESSAGES.messageNotFound]);
    expect(answerOf(() => messagePolicy.authorize(member, 'markSeen', message('member', 'member')))).toEqual([403, CHAT_MESSAGES.ownMessage]);
  });
});

describe('recipientPolicy', () => {
  it('write: anyone may write to a person who is not blocked; a blocked one 403, an unknown one 404', () => {
    expect(answerOf(() => recipientPolicy.authorize(member, 'write', { recipient: { blockedAt: null } }))).toEqual([200]);
    expect(answerOf(() => recipientPolicy.authorize(member, 'write', { recipient: { blockedAt: new Date() } }))).toEqual([403, CHAT_MESSAGES.recipientBlocked]);
    expect(answerOf(() => recipientPolicy.authorize(member, 'write', undefined))).toEqual([404, CHAT_MESSAGES.recipientNotFound]);
  });
});

describe('contacts and attachments', () => {
  it('only the administration writes contacts unmasked', () => {
    expect(writesContactsUnmasked(admin)).toBe(true);
    expect(writesContactsUnmasked(member)).toBe(false);
    expect(writesContactsUnmasked(null)).toBe(false);
  });

  it('a file is attached by its uploader only; a missing file by nobody', () => {
    expect(mayAttach('member', { ownerId: 'member' })).toBe(true);
    expect(mayAttach('member', { ownerId: 'other' })).toBe(false);
    expect(mayAttach('member', undefined)).toBe(false);
  });
});
