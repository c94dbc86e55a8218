import { eq, getTableName, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person } from './test/app.ts';
import { useTestApp } from './test/use-app.ts';
import { call, randomAddress } from './test/api.ts';
import { multipartBody, PNG } from './test/multipart.ts';
import { createProject, createService } from './db/catalog-factories.ts';
import { blogPosts } from './modules/blog/schema.ts';
import { chatMembers, chats, messages } from './modules/chat/schema.ts';
import { files } from './modules/files/schema.ts';
import { users } from './modules/users/schema.ts';
import { payOrderForTest } from './modules/orders/testing.ts';
import { FILE_USES } from './file-uses.ts';
import type { PendingServiceEdit } from './modules/services/schema.ts';
import type { OrderDetail } from '#contract/orders';

// ADR 041: every declared use of files keeps them through the uploads cleanup and lets read them exactly whom it
// says; a column that holds file references and is no use's fails here.

const server = useTestApp({}, { dispatch: false });
const person = server.person;
const DAY = 86_400_000;

interface Uploaded {
  url: string;
  filePath: string;
}

async function upload(owner: Person): Promise<Uploaded> {
  const body = multipartBody([{ name: 'file', filename: 'скан.png', type: 'image/png', data: PNG }]);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/files/single',
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${owner.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as Uploaded;
}

/** The file as a browser asks for it: the cookie of the one who asks, or none. */
const read = (url: string, who: Person | null) =>
  server.app.inject({ url, headers: who ? { cookie: `authToken=${who.token}` } : {} });

const post = <T>(who: Person, url: string, body: unknown) =>
  call<T>(server.app, 'POST', url, { token: who.token, body, remoteAddress: randomAddress() });

/** A paid order in progress of the seller's service by the customer. */
async function paidOrder(seller: Person, customer: Person) {
  const service = await createService(server.db, seller.user.id, { price: 100_000, days: 3, revisions: 1 });
  const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  await payOrderForTest(server.app, ordered.body.result._id);
  return ordered.body.result;
}

/** Deliveries and disputes post their files in the order's chat too: taken out there, only the use under test keeps them. */
const outOfChats = (file: Uploaded) =>
  server.db
    .update(messages)
    .set({ files: sql`'{}'::text[]` })
    .where(sql`${messages.files} && array[${file.url}]::text[]`);

/**
 * One way to use a file for each declared use (by its `what`): puts the owner's upload to that use and answers
 * who, besides its owner and admins, may read it (`everyone`, nobody else, or that person).
 */
type Placing = (owner: Person, file: Uploaded) => Promise<'everyone' | 'owner' | Person>;

const PLACINGS: Record<string, { owner?: Parameters<typeof person>[0]; place: Placing }> = {
  avatars: {
    place: async (owner, file) => {
      await server.db.update(users).set({ avatar: file.url }).where(eq(users.id, owner.user.id));
      return 'everyone';
    },
  },
  'service images': {
    owner: { role: 'seller' },
    place: async (owner, file) => {
      await createService(server.db, owner.user.id, { images: [file.filePath] });
      return 'everyone';
    },
  },
  "images of a service's edit under moderation": {
    owner: { role: 'seller' },
    place: async (owner, file) => {
      const pendingEdit = {
        submittedAt: new Date().toISOString(),
        view: {},
        values: { images: [file.url] },
      } as unknown as PendingServiceEdit;
      await createService(server.db, owner.user.id, { pendingEdit });
      return 'owner';
    },
  },
  'project attachments': {
    place: async (owner, file) => {
      await createProject(server.db, owner.user.id, { attachments: [file.url] });
      return 'everyone';
    },
  },
  'chat attachments': {
    place: async (owner, file) => {
      const other = await person();
      const [chat] = await server.db
        .insert(chats)
        .values({ kind: 'direct', directKey: `${owner.user.id}:${other.user.id}` })
        .returning();
      await server.db.insert(chatMembers).values([
        { chatId: chat!.id, userId: owner.user.id },
        { chatId: chat!.id, userId: other.user.id },
      ]);
      await server.db.insert(messages).values({ chatId: chat!.id, senderId: owner.user.id, files: [file.url] });
      return other;
    },
  },
  'order deliveries': {
    owner: { role: 'seller' },
    place: async (seller, file) => {
      const customer = await person();
      const order = await paidOrder(seller, customer);
      const delivered = await post(seller, `/api/orders/${order._id}/deliver`, {
        message: 'Готово, макет во вложении',
        files: [file.url],
      });
      expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
      await outOfChats(file);
      return customer;
    },
  },
  'dispute files': {
    place: async (customer, file) => {
      const seller = await person({ role: 'seller' });
      const order = await paidOrder(seller, customer);
      const opened = await post(customer, '/api/disputes/', {
        order_id: order._id,
        reason: 'not_delivered',
        description: 'Срок сдачи прошёл неделю назад, исполнитель не отвечает на сообщения.',
        files: [file.url],
      });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      await outOfChats(file);
      return seller;
    },
  },
  'appeal attachments': {
    place: async (author, file) => {
      const written = await post(author, '/api/appeals', {
        subject: 'question',
        text: 'Не могу вывести деньги, скриншот ошибки во вложении.',
        files: [file.url],
      });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      return 'owner';
    },
  },
  'blog covers and article pictures': {
    owner: { role: 'admin' },
    place: async (admin, file) => {
      await server.db.insert(blogPosts).values({
        authorId: admin.user.id,
        title: 'Как выбрать исполнителя',
        description: 'Пять вопросов до заказа',
        body: `![схема](${file.url})`,
        html: `<p><img src="${file.url}" alt="схема"></p>\n`,
      });
      return 'everyone';
    },
  },
};

/** Runs the cleanup over every file older than a day, batch after batch, until it has seen them all. */
async function sweep() {
  const before = new Date(Date.now() - DAY);
  for (let i = 0; i < 20; i++) await server.app.services.files.sweepUnused(before, 5);
}

const age = (file: Uploaded) =>
  server.db
    .update(files)
    .set({ createdAt: new Date(Date.now() - 2 * DAY) })
    .where(eq(files.path, file.filePath));

const stored = async (file: Uploaded) =>
  (await server.db.select({ id: files.id }).from(files).where(eq(files.path, file.filePath))).length === 1;

describe('file uses (ADR 041)', () => {
  it('every declared use is tried here', () => {
    expect(Object.keys(PLACINGS).sort()).toEqual(FILE_USES.map((use) => use.what).sort());
  });

  for (const [what, { owner: ownerKind, place }] of Object.entries(PLACINGS)) {
    it(`${what}: kept by the cleanup however old, read by whom the use admits`, async () => {
      const [owner, stranger, admin] = await Promise.all([person(ownerKind), person(), person({ role: 'admin' })]);
      const file = await upload(owner);
      const unused = await upload(owner);
      const readers = await place(owner, file);
      await Promise.all([age(file), age(unused)]);

      await sweep();
      expect(await stored(file)).toBe(true);
      expect(await stored(unused)).toBe(false);

      const res = await read(file.url, null);
      if (readers === 'everyone') {
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        return;
      }
      expect(res.statusCode).toBe(404);
      expect((await read(file.url, stranger)).statusCode).toBe(404);
      const allowed = readers === 'owner' ? [owner, admin] : [owner, admin, readers];
      for (const who of allowed) {
        const mine = await read(file.url, who);
        expect(mine.statusCode).toBe(200);
        expect(mine.headers['cache-control']).toBe('private, no-store');
      }
    });
  }

  it('an appeal attachment: a guest and another member get 404, its author and an admin get it', async () => {
    const [author, stranger, admin] = await Promise.all([person(), person(), person({ role: 'admin' })]);
    const file = await upload(author);
    await PLACINGS['appeal attachments']!.place(author, file);
    expect((await read(file.url, null)).statusCode).toBe(404);
    expect((await read(file.url, stranger)).statusCode).toBe(404);
    // Its picture sizes (ADR 022) are as private as the picture.
    const variant = file.url.replace(/\.png$/, '.w320.webp');
    expect((await read(variant, stranger)).statusCode).toBe(404);
    expect((await read(file.url, author)).statusCode).toBe(200);
    expect((await read(file.url, admin)).statusCode).toBe(200);
    // A member who only knows the url cannot delete it either, nor learn it exists.
    const removed = await call(server.app, 'DELETE', '/api/files/single', {
      token: stranger.token,
      body: { filePath: file.url },
    });
    expect(removed.status).toBe(404);
  });

  it('no table keeps a file reference in a column that no use declares', async () => {
    // Every use's placing again, then every text, text[] and jsonb column of every table is searched for the files.
    const placed: Uploaded[] = [];
    for (const { owner: ownerKind, place } of Object.values(PLACINGS)) {
      const owner = await person(ownerKind);
      const file = await upload(owner);
      await place(owner, file);
      placed.push(file);
    }
    const declared = new Set(FILE_USES.flatMap((use) => use.columns.map((c) => `${getTableName(c.table)}.${c.name}`)));
    // Not uses: the file's own row, and records of what happened (an audit entry, an event on its way) that may
    // name a file gone since.
    const notUses = new Set(['files.path', 'audit_log.details', 'outbox.payload']);
    const { rows: columns } = (await server.db.execute(sql`
      select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = 'public' and (data_type in ('text', 'jsonb', 'json') or udt_name = '_text')
    `)) as unknown as { rows: { table: string; column: string }[] };
    const patterns = sql`array[${sql.join(
      placed.map((f) => sql`${`%${f.filePath}%`}`),
      sql`, `,
    )}]::text[]`;
    const found: string[] = [];
    for (const { table, column } of columns) {
      const { rows } = (await server.db.execute(
        sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)}::text like any(${patterns}) limit 1`,
      )) as unknown as { rows: unknown[] };
      if (rows.length) found.push(`${table}.${column}`);
    }
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((c) => !declared.has(c) && !notUses.has(c))).toEqual([]);
  });

  it('a file nothing uses is its owner’s and the admins’ alone, until a use names it', async () => {
    const [owner, stranger, admin] = await Promise.all([
      person({ role: 'seller' }),
      person(),
      person({ role: 'admin' }),
    ]);
    const file = await upload(owner);
    expect((await read(file.url, null)).statusCode).toBe(404);
    expect((await read(file.url, stranger)).statusCode).toBe(404);
    expect((await read(file.url, owner)).headers['cache-control']).toBe('private, no-store');
    expect((await read(file.url, admin)).statusCode).toBe(200);
    await createService(server.db, owner.user.id, { images: [file.url] });
    expect((await read(file.url, null)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
