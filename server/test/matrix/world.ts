import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pathFor, routeOf, type RouteName } from '#contract/routes';
import { createTestApp } from '../app.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { users, type Role, type UserRow } from '../../modules/users/schema.ts';
import { chatMembers } from '../../modules/chat/schema.ts';
import { twoFactorRecoveryCodes, twoFactorTotp } from '../../modules/auth/schema.ts';
import { TEST_TOTP_SECRET, enrolTotp } from '../../modules/auth/index.ts';
import { issueEmailToken } from '../../platform/email-tokens.ts';
import type { Database } from '../../db/client.ts';
import { multipartBody, PNG } from '../multipart.ts';

// The people and the data of the authorization matrix (server/authorization-matrix.db.test.ts): one app on a
// database of its own, seven actors, and what the owner owns. Resources a request changes or deletes are made
// fresh for each cell by the `fresh*` helpers.

/** Who sends the request. */
export const ACTORS = ['anonymous', 'unconfirmed', 'confirmed', 'other', 'owner', 'admin', 'blocked'] as const;
export type Actor = (typeof ACTORS)[number];
/** The actors who have an account (every one but the anonymous visitor). */
export type Member = Exclude<Actor, 'anonymous'>;

export const PASSWORD = DEFAULT_PASSWORD;

/** A request of one endpoint, as a fixture builds it: the endpoint's name gives the method and the path. */
export interface MatrixRequest {
  params?: Record<string, string>;
  /** The tail of a wildcard path (`/uploads/*`). */
  wildcard?: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart body instead of JSON (uploads). */
  multipart?: { payload: Buffer; headers: Record<string, string> };
  /** Headers of the request beyond the token and the content type (Idempotency-Key, a webhook's signature). */
  headers?: Record<string, string>;
}

export interface Sent {
  status: number;
  message: string;
}

interface Person {
  row: UserRow;
  token: string | null;
}

export interface MatrixWorld {
  app: FastifyInstance;
  database: Database;
  /** Each actor's user row as it was set up (the blocked one: as the block left it). */
  user(actor: Member): UserRow;
  /** The actor's password-checked credentials (every actor has PASSWORD). */
  email(actor: Member): string;
  /** The owner's standing resources, which no cell changes. */
  fixed: {
    /** An active, public service of the owner. */
    service: string;
    /** A paused service of the owner: the owner's and admins' only. */
    pausedService: string;
    /** An active project of the owner. */
    project: string;
    /** An archived project of the owner: the owner's and admins' only. */
    archivedProject: string;
    /** A public file of the owner (an image attached to a project, never sent in a chat). */
    file: { filePath: string; url: string };
    /** A file the owner uploaded and nothing uses yet: the owner's and admins' alone (ADR 041). */
    unusedFile: { filePath: string; url: string };
    /** A file the owner attached to an appeal: the author's and admins' alone (ADR 041). */
    appealFile: { filePath: string; url: string };
    /** The direct chat of the owner and `other`. */
    chat: string;
    /** A file the owner sent in that chat (private to its members, the owner and admins). */
    chatFile: { filePath: string; url: string };
    /** A message of `other` in the chat. */
    message: string;
  };
  fresh: {
    /** A service of the owner (or of `of`), active unless the overrides say otherwise. */
    service(overrides?: Parameters<typeof createService>[2], of?: Member): Promise<string>;
    project(overrides?: Parameters<typeof createProject>[2], of?: Member): Promise<string>;
    user(overrides?: Parameters<typeof createUser>[1]): Promise<UserRow>;
    /** A file the owner uploads and attaches to a project (public) now. */
    file(): Promise<{ filePath: string; url: string }>;
    /** A file the owner uploads and sends in the chat with `other` now. */
    chatFile(): Promise<{ filePath: string; url: string }>;
    /** A message `other` sends in the chat now (the owner has not seen it). */
    message(): Promise<string>;
    /** A one-time link token of a fresh user. */
    emailToken(purpose: 'confirm' | 'reset'): Promise<string>;
    /** The chat of the owner and `other`, listed again for both (a cell may have deleted it for one). */
    chat(): Promise<string>;
  };
  /** Sends one request of the endpoint as the actor. */
  send(name: RouteName, actor: Actor, request: MatrixRequest): Promise<Sent>;
  /** Puts every actor back as set up (a cell may switch mode, change the email or password, end sessions). */
  restoreActors(): Promise<void>;
  /** Switches the mode of every member actor (the owner's mode decides who may post services or projects). */
  setMode(role: Role): Promise<void>;
  close(): Promise<void>;
}

let address = 0;
/** Another client address for every request: per-address limits never add up. */
const nextAddress = () => {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

export async function createMatrixWorld(): Promise<MatrixWorld> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-matrix-'));
  // No dispatcher: letters stay queued, nothing runs between the requests.
  const test = await createTestApp({ DATA_DIR: dataDir }, { dispatch: false });
  const { app, database } = test;
  const { db } = database;

  // Rate limits are not what the matrix is about: every counter a request touched is forgotten before the next.
  const limiter = app.services.limiter;
  const touched = new Set<string>();
  const hit = limiter.hit.bind(limiter);
  limiter.hit = (key, limit, windowMs) => {
    touched.add(key);
    return hit(key, limit, windowMs);
  };
  const resetLimits = async () => {
    for (const key of touched) await limiter.reset(key);
    touched.clear();
  };

  const both: Role[] = ['customer', 'seller'];
  const people = {} as Record<Member, Person>;
  const make = async (actor: Member, overrides: Parameters<typeof createUser>[1]) => {
    const row = await createUser(db, overrides);
    people[actor] = { row, token: await app.services.tokens.sign(row) };
  };
  await make('owner', { role: 'seller', roles: both });
  await make('confirmed', { role: 'seller', roles: both });
  await make('other', { role: 'seller', roles: both });
  await make('unconfirmed', { role: 'seller', roles: both, emailConfirmedAt: null });
  await make('admin', { role: 'admin' });
  await make('blocked', { role: 'seller', roles: both });

  const url = (name: RouteName, request: MatrixRequest) => {
    const { path: template } = routeOf(name);
    const filled = template.endsWith('*')
      ? template.replace('*', request.wildcard ?? '')
      : pathFor(template, request.params);
    const query = new URLSearchParams(request.query ?? {}).toString();
    return query ? `${filled}?${query}` : filled;
  };

  const injectAs = async (name: RouteName, token: string | null, request: MatrixRequest): Promise<Sent> => {
    await resetLimits();
    const { method } = routeOf(name);
    const headers: Record<string, string> = { ...request.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
    let payload: string | Buffer | undefined;
    if (request.multipart) {
      Object.assign(headers, request.multipart.headers);
      payload = request.multipart.payload;
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(request.body);
    }
    const res = await app.inject({ method, url: url(name, request), headers, payload, remoteAddress: nextAddress() });
    let message = '';
    try {
      message = String((res.json() as { message?: unknown }).message ?? '');
    } catch {
      // A file, not JSON.
    }
    return { status: res.statusCode, message };
  };

  /** A request a fixture needs: it must succeed. */
  const must = async <T = Record<string, string>>(
    name: RouteName,
    actor: Member,
    request: MatrixRequest,
  ): Promise<T> => {
    const res = await app.inject({
      method: routeOf(name).method,
      url: url(name, request),
      headers: {
        authorization: `Bearer ${people[actor].token}`,
        ...(request.multipart ? request.multipart.headers : { 'content-type': 'application/json' }),
      },
      payload: request.multipart ? request.multipart.payload : JSON.stringify(request.body ?? {}),
      remoteAddress: nextAddress(),
    });
    await resetLimits();
    if (res.statusCode !== 200) throw new Error(`fixture ${name} as ${actor}: ${res.statusCode} ${res.body}`);
    return res.json<{ result: T }>().result;
  };

  // The blocked member: signed in (holding a token), then blocked by an admin through the admin API.
  await must('admin.users.block', 'admin', {
    params: { id: people.blocked.row.id },
    body: { blocked: true, reason: 'Спам в сообщениях' },
  });
  const [blockedRow] = await db.select().from(users).where(eq(users.id, people.blocked.row.id));
  people.blocked.row = blockedRow!;

  const upload = async () => {
    const body = multipartBody([{ name: 'file', filename: 'макет.png', type: 'image/png', data: PNG }]);
    const file = await must<{ filePath: string; url: string }>('files.upload', 'owner', { multipart: body });
    return { filePath: file.filePath, url: file.url };
  };
  // Attached to a project: public (an upload nothing uses is its owner's alone, ADR 041).
  const publicFile = async () => {
    const uploaded = await upload();
    await createProject(db, people.owner.row.id, { attachments: [uploaded.url] });
    return uploaded;
  };
  const file = await publicFile();
  const unusedFile = await upload();
  const appealFile = await upload();
  await must('appeals.create', 'owner', {
    body: { subject: 'question', text: 'Не приходят деньги за заказ, скриншот во вложении', files: [appealFile.url] },
  });
  const opened = await must<{ chat_id: string }>('chat.send', 'owner', {
    body: { message: 'Здравствуйте! Есть вопрос по заказу', recipient: people.other.row.id },
  });
  const chat = opened.chat_id;
  const sendChatFile = async () => {
    const sent = await upload();
    await must('chat.send', 'owner', { body: { message: 'Макет во вложении', chat_id: chat, files: [sent.url] } });
    return sent;
  };
  const chatFile = await sendChatFile();
  const sendMessage = async () =>
    (await must<{ _id: string }>('chat.send', 'other', { body: { message: 'Добрый день, посмотрю', chat_id: chat } }))
      ._id;
  const message = await sendMessage();

  const fixed: MatrixWorld['fixed'] = {
    service: (await createService(db, people.owner.row.id)).id,
    pausedService: (await createService(db, people.owner.row.id, { status: 'paused' })).id,
    project: (await createProject(db, people.owner.row.id)).id,
    archivedProject: (await createProject(db, people.owner.row.id, { status: 'archived' })).id,
    file,
    unusedFile,
    appealFile,
    chat,
    chatFile,
    message,
  };

  // What restoreActors() puts back.
  const memberIds = (Object.keys(people) as Member[]).map((a) => people[a].row.id);
  const original = new Map((await db.select().from(users).where(inArray(users.id, memberIds))).map((r) => [r.id, r]));

  async function restoreActors() {
    const rows = await db.select().from(users).where(inArray(users.id, memberIds));
    for (const row of rows) {
      const was = original.get(row.id)!;
      const same =
        row.activeRole === was.activeRole &&
        row.roles.join() === was.roles.join() &&
        row.email === was.email &&
        row.passwordHash === was.passwordHash &&
        String(row.emailConfirmedAt) === String(was.emailConfirmedAt) &&
        String(row.blockedAt) === String(was.blockedAt) &&
        row.avatar === was.avatar &&
        String(row.twoFactorAt) === String(was.twoFactorAt);
      if (!same) {
        await db
          .update(users)
          .set({
            activeRole: was.activeRole,
            roles: was.roles,
            email: was.email,
            passwordHash: was.passwordHash,
            emailConfirmedAt: was.emailConfirmedAt,
            blockedAt: was.blockedAt,
            blockReason: was.blockReason,
            avatar: was.avatar,
          })
          .where(eq(users.id, row.id));
        // A second factor turned on or off by a cell (ADR 054): as it was, the admin's with the factories' secret.
        if (String(row.twoFactorAt) !== String(was.twoFactorAt)) {
          await db.delete(twoFactorTotp).where(eq(twoFactorTotp.userId, row.id));
          await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, row.id));
          await db.update(users).set({ twoFactorAt: null }).where(eq(users.id, row.id));
          if (was.twoFactorAt) await enrolTotp(db, row.id, TEST_TOTP_SECRET);
        }
      }
      const actor = (Object.keys(people) as Member[]).find((a) => people[a].row.id === row.id)!;
      // A revoked session (logout everywhere, a new password) gets a new token; the blocked member keeps the one
      // they held when they were blocked.
      if (actor !== 'blocked' && row.tokenVersion !== people[actor].row.tokenVersion) {
        people[actor] = { row: { ...row, ...(same ? {} : was), tokenVersion: row.tokenVersion }, token: null };
        people[actor].token = await app.services.tokens.sign(people[actor].row);
      }
    }
  }

  async function setMode(role: Role) {
    const ids = (['owner', 'confirmed', 'other', 'unconfirmed', 'blocked'] as const).map((a) => people[a].row.id);
    await db.update(users).set({ activeRole: role }).where(inArray(users.id, ids));
  }

  return {
    app,
    database,
    user: (actor) => people[actor].row,
    email: (actor) => people[actor].row.email,
    fixed,
    fresh: {
      service: async (overrides, of = 'owner') => (await createService(db, people[of].row.id, overrides)).id,
      project: async (overrides, of = 'owner') => (await createProject(db, people[of].row.id, overrides)).id,
      user: (overrides) => createUser(db, overrides),
      file: publicFile,
      chatFile: sendChatFile,
      message: sendMessage,
      async emailToken(purpose) {
        const person = await createUser(db, purpose === 'confirm' ? { emailConfirmedAt: null } : {});
        return issueEmailToken(db, person.id, purpose, 60 * 60 * 1000);
      },
      async chat() {
        await db.update(chatMembers).set({ deletedAt: null, clearedAt: null }).where(eq(chatMembers.chatId, chat));
        return chat;
      },
    },
    send: (name, actor, request) => injectAs(name, actor === 'anonymous' ? null : people[actor].token, request),
    restoreActors,
    setMode,
    async close() {
      await test.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
