import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { disputes } from './schema.ts';
import { orderRefs } from '../orders/index.ts';
import { chatRowsByIds, disputeChatIdOf, orderChatIdOf } from '../chat/index.ts';
import { people, type People, type UserRow } from '../users/index.ts';
import { notFound } from '../../lib/http.ts';
import { filesByPaths } from '../../platform/files.ts';
import { timestampKey } from '../../platform/listing/listing.ts';
import { DISPUTE_MESSAGES, type Dispute } from '#contract/disputes';
import type { DisputeServiceDeps } from './deps.ts';
import { disputePolicy } from './policy.ts';
import { presentDispute, type DisputeRecord } from './presenter.ts';

// Disputes as the module reads them (with their order, parties, arbiter and chats), and as a viewer sees them.

/** The dispute's order, as the disputes' queries join and filter it. */
export const disputedOrder = orderRefs('disputed_order');
const customerUser = people('customer');
const sellerUser = people('seller');
const adminUser = people('arbiter');
const personOf = (t: People) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

export function disputeRecords(db: Db) {
  return db
    .select({
      dispute: disputes,
      order: {
        id: disputedOrder.id,
        // A stage's dispute is shown under its head's number, with the stage named (ADR 065).
        number: disputedOrder.shownNumber,
        title: disputedOrder.title,
        stage: disputedOrder.stage,
        stageTitle: disputedOrder.stageTitle,
        price: disputedOrder.price,
        status: disputedOrder.status,
        customerId: disputedOrder.customerId,
        sellerId: disputedOrder.sellerId,
        commissionBp: disputedOrder.commissionBp,
      },
      customer: personOf(customerUser),
      seller: personOf(sellerUser),
      admin: personOf(adminUser),
      chatId: disputeChatIdOf(disputes.id),
      orderChatId: orderChatIdOf(disputedOrder.workspaceId),
      createdKey: timestampKey(disputes.createdAt),
    })
    .from(disputes)
    .innerJoin(disputedOrder, eq(disputedOrder.id, disputes.orderId))
    .innerJoin(customerUser, eq(customerUser.id, disputedOrder.customerId))
    .innerJoin(sellerUser, eq(sellerUser.id, disputedOrder.sellerId))
    .leftJoin(adminUser, eq(adminUser.id, disputes.adminId))
    .$dynamic();
}

export async function disputeRecord(db: Db, id: string): Promise<(DisputeRecord & { createdKey: string }) | undefined> {
  const [row] = await disputeRecords(db).where(eq(disputes.id, id)).limit(1);
  return row ? fixAdmin(row) : undefined;
}

/** A left join's missing arbiter comes back as an object of nulls. */
export function fixAdmin<T extends { admin: { id: string | null } | null }>(row: T): T & DisputeRecord {
  return { ...row, admin: row.admin?.id ? row.admin : null } as T & DisputeRecord;
}

/** The disputes with their chats as `viewer` sees them (chat: the full chat of the chat module). */
export async function presentDisputes(deps: DisputeServiceDeps, viewer: UserRow, rows: DisputeRecord[]): Promise<Dispute[]> {
  if (rows.length === 0) return [];
  const { db } = deps;
  const [files, flagDays, chatRows] = await Promise.all([
    filesByPaths(db, rows.flatMap((r) => r.dispute.files)),
    deps.settings.get('disputes.flagDays'),
    chatRowsByIds(
      db,
      rows.flatMap((r) => (r.chatId ? [r.chatId] : [])),
    ),
  ]);
  const views = new Map((await deps.chat.chatsFor(viewer.id, chatRows)).map((c) => [c._id, c]));
  const now = deps.platform.clock.now();
  return rows.flatMap((r) => {
    const chat = r.chatId ? views.get(r.chatId) : undefined;
    return chat ? [{ ...presentDispute(r, viewer.id, files, now, flagDays), unseen_messages: chat.unseen_messages, chat }] : [];
  });
}

/** One dispute as `user` sees it (its parties and admins; anyone else 404). */
export async function viewDispute(deps: DisputeServiceDeps, user: UserRow, id: string): Promise<Dispute> {
  const record = await disputeRecord(deps.db, id);
  disputePolicy.authorize(user, 'view', record?.dispute);
  const [dispute] = await presentDisputes(deps, user, [record!]);
  if (!dispute) throw notFound(DISPUTE_MESSAGES.notFound);
  return dispute;
}
