import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { readdirSync, type Dirent } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { createTestApp } from '../app.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { users, type Role, type UserRow } from '../../modules/users/schema.ts';
import { services as servicesTable } from '../../modules/services/schema.ts';
import { projects as projectsTable } from '../../modules/projects/schema.ts';
import { chatMembers } from '../../modules/chat/schema.ts';
import { cities, countries, subCategories } from '../../modules/lookups/schema.ts';
import type { Database } from '../../db/client.ts';
import { parseVariantPath } from '#contract/image-variants';
import { multipartBody, PNG } from '../multipart.ts';


// The app under fuzz, the routes Fastify registered, three actors and the data they own.

export type ActorName = 'guest' | 'member' | 'admin';
/** The password of every actor (the fuzz sends it where a field asks for the current one). */
export const PASSWORD = DEFAULT_PASSWORD;
export const ACTORS: ActorName[] = ['guest', 'member', 'admin'];

export interface RegisteredRoute {
  method: string;
  url: string;
  hidden: boolean;
  consumes: string[];
}

/**
 * Every route Fastify registers in the next app built: the OpenAPI document leaves hidden ones out, so this is
 * the list that tells whether something escaped it. Fastify announces each new instance on this channel
 * before any plugin runs, so the hook sees all routes without changes to buildApp().
 */
function recordRoutes(): { routes: RegisteredRoute[]; stop(): void } {
  const routes: RegisteredRoute[] = [];
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const schema = (route.schema ?? {}) as { hide?: boolean; consumes?: string[] };
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({ method, url: route.url, hidden: schema.hide === true, consumes: schema.consumes ?? [] });
      }
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  return { routes, stop: () => diagnostics.unsubscribe('fastify.initialization', onInit) };
}

export interface Ids {
  member: string;
  memberName: string;
  memberEmail: string;
  peer: string;
  admin: string;
  service: string;
  peerService: string;
  project: string;
  peerProject: string;
  chat: string;
  /** A message of the peer in the member's chat (the member can mark it seen). */
  message: string;
  /** The member's uploaded file: stored path and public url. */
  filePath: string;
  fileUrl: string;
  city: string;
  country: string;
  sub: string;
}

export interface World {
  app: FastifyInstance;
  database: Database;
  routes: RegisteredRoute[];
  ids: Ids;
  dataDir: string;
  token(actor: ActorName): string | null;
  /**
   * Puts the actors and their data back as they were (a fuzzed request may block, demote, delete, log out,
   * change the password), with the member in `memberRole` mode; cheap when nothing was written since.
   */
  restore(memberRole?: Role): Promise<void>;
  /** Row count and checksum of every table, one query; for "a refused write changed nothing". */
  snapshot(): Promise<Map<string, string>>;
  /**
   * The next transaction id PostgreSQL will hand out: any write (even one rolled back) moves it, reads never do.
   * Unchanged around a request means nothing was written, without the cost of a snapshot.
   */
  nextXid(): Promise<string>;
  /** Writes what the app buffers (views, searches) and waits for pending chat work. */
  settle(): Promise<void>;
  /** Forgets every rate-limit counter the app touched, so that the next request reaches its handler. */
  resetLimits(): Promise<void>;
  /** Number of files under the uploads folder. */
  storedFiles(): Promise<number>;
  close(): Promise<void>;
}

interface Actor {
  user: UserRow;
  roles: Role[];
  activeRole: Role;
  email: string;
  passwordHash: string;
  confirmedAt: Date;
  token: string | null;
}

async function newActor(db: Database['db'], role: Role, roles: Role[]): Promise<Actor> {
  const user = await createUser(db, { role, roles });
  return { user, roles, activeRole: role, email: user.email, passwordHash: user.passwordHash, confirmedAt: user.emailConfirmedAt!, token: null };
}

export async function createWorld(): Promise<World> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podryad-fuzz-'));
  const recorder = recordRoutes();
  let test;
  try {
    // No dispatcher: its deletes of delivered rows would look like writes of the request being probed.
    test = await createTestApp({ DATA_DIR: dataDir }, { dispatch: false });
  } finally {
    recorder.stop();
  }
  const { app, database } = test;
  const { db } = database;

  const member = await newActor(db, 'seller', ['customer', 'seller']);
  const peer = await newActor(db, 'seller', ['customer', 'seller']);
  const admin = await newActor(db, 'admin', ['customer', 'admin']);
  const actors = { member, peer, admin };

  const signAll = async () => {
    const rows = await db.select().from(users).where(inArray(users.id, [member.user.id, peer.user.id, admin.user.id]));
    for (const a of Object.values(actors)) {
      a.user = rows.find((r) => r.id === a.user.id)!;
      a.token = await app.services.tokens.sign(a.user);
    }
  };
  await signAll();

  const inject = async (opts: InjectOptions) => {
    const res = await app.inject(opts);
    if (res.statusCode !== 200) throw new Error(`fixture request failed: ${res.statusCode} ${res.body}`);
    return res.json<{ result: Record<string, string> }>().result;
  };
  const bearer = (a: Actor) => ({ authorization: `Bearer ${a.token}` });

  // Two of everything, so that every listing has a next page and therefore a real cursor.
  const ids = {} as Ids;
  ids.member = member.user.id;
  ids.memberName = member.user.userName;
  ids.memberEmail = member.user.email;
  ids.peer = peer.user.id;
  ids.admin = admin.user.id;
  const [city] = await db.select({ id: cities.id }).from(cities).limit(1);
  const [country] = await db.select({ id: countries.id }).from(countries).limit(1);
  const [sub] = await db.select({ slug: subCategories.slug }).from(subCategories).limit(1);
  ids.city = city!.id;
  ids.country = country!.id;
  ids.sub = sub!.slug;

  const upload = async () => {
    const body = multipartBody([{ name: 'file', filename: 'макет.png', type: 'image/png', data: PNG }]);
    const file = await inject({ method: 'POST', url: '/api/files/single', payload: body.payload, headers: { ...body.headers, ...bearer(member) } });
    ids.filePath = file.filePath!;
    ids.fileUrl = file.url!;
  };
  const newService = async (owner: Actor) => (await createService(db, owner.user.id, { images: ids.fileUrl ? [ids.fileUrl] : [] })).id;
  const newProject = async (owner: Actor) => (await createProject(db, owner.user.id)).id;
  const newChat = async () => {
    const first = await inject({ method: 'POST', url: '/api/messages/', payload: { message: 'Здравствуйте!', recipient: peer.user.id }, headers: bearer(member) });
    const answer = await inject({ method: 'POST', url: '/api/messages/', payload: { message: 'Добрый день', chat_id: first.chat_id }, headers: bearer(peer) });
    ids.chat = first.chat_id!;
    ids.message = answer._id!;
  };

  await upload();
  ids.service = await newService(member);
  await newService(member);
  ids.peerService = await newService(peer);
  await newService(peer);
  ids.project = await newProject(member);
  await newProject(member);
  ids.peerProject = await newProject(peer);
  await newProject(peer);
  await newChat();

  // Nothing to put back when no transaction id was handed out since the last restore. Otherwise one read of
  // the actors and one of the fixtures, and writes only for what differs.
  let restoredAt = '';
  async function restore(memberRole: Role = 'seller') {
    await settle();
    if ((await nextXid()) === restoredAt && member.activeRole === memberRole) return;
    member.activeRole = memberRole;
    const rows = await db.select().from(users).where(inArray(users.id, [member.user.id, peer.user.id, admin.user.id]));
    for (const a of Object.values(actors)) {
      const row = rows.find((r) => r.id === a.user.id)!;
      const intact =
        row.blockedAt === null &&
        row.roles.join() === a.roles.join() &&
        row.activeRole === a.activeRole &&
        row.email === a.email &&
        row.passwordHash === a.passwordHash &&
        row.emailConfirmedAt !== null;
      if (!intact) {
        await db
          .update(users)
          .set({ blockedAt: null, blockReason: null, roles: a.roles, activeRole: a.activeRole, email: a.email, passwordHash: a.passwordHash, emailConfirmedAt: a.confirmedAt })
          .where(eq(users.id, a.user.id));
      }
      if (!intact || row.tokenVersion !== a.user.tokenVersion || !a.token) {
        a.user = row;
        a.token = await app.services.tokens.sign(a.user);
      }
    }
    const { rows: state } = (await db.execute(sql`
      select 'file' as kind, path as id, '' as status from files where path = ${ids.filePath}
      union all select 'service', id::text, status from services where id in (${ids.service}, ${ids.peerService})
      union all select 'project', id::text, status from projects where id in (${ids.project}, ${ids.peerProject})
      union all select 'member', user_id::text, case when deleted_at is null and cleared_at is null then 'active' else 'deleted' end
        from chat_members where chat_id = ${ids.chat}
    `)) as unknown as { rows: { kind: string; id: string; status: string }[] };
    const found = (id: string) => state.find((r) => r.id === id);
    if (!found(ids.filePath)) await upload();
    if (!found(ids.service)) ids.service = await newService(member);
    if (!found(ids.peerService)) ids.peerService = await newService(peer);
    if (!found(ids.project)) ids.project = await newProject(member);
    if (!found(ids.peerProject)) ids.peerProject = await newProject(peer);
    // Services and projects go back to their published state (a fuzzed request may pause or hide them).
    if (state.some((r) => r.kind === 'service' && r.status !== 'active')) {
      await db.update(servicesTable).set({ status: 'active' }).where(inArray(servicesTable.id, [ids.service, ids.peerService]));
    }
    if (state.some((r) => r.kind === 'project' && r.status !== 'active')) {
      await db.update(projectsTable).set({ status: 'active' }).where(inArray(projectsTable.id, [ids.project, ids.peerProject]));
    }
    if (state.some((r) => r.kind === 'member' && r.status !== 'active')) {
      await db.update(chatMembers).set({ deletedAt: null, clearedAt: null }).where(eq(chatMembers.chatId, ids.chat));
    }
    restoredAt = await nextXid();
  }

  // Rate limits would turn most of the cases of an endpoint into 429s after the first few: the fuzz wants every
  // case to reach the handler, so the counters the app touched are reset before each request.
  const limiter = app.services.limiter;
  const limited = new Set<string>();
  const hit = limiter.hit.bind(limiter);
  limiter.hit = (key, limit, windowMs) => {
    limited.add(key);
    return hit(key, limit, windowMs);
  };
  async function resetLimits() {
    for (const key of limited) await limiter.reset(key);
    limited.clear();
  }

  const tables = (
    (await db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)) as unknown as {
      rows: { name: string }[];
    }
  ).rows.map((r) => r.name);
  const snapshotSql = sql.raw(
    tables
      .map((t) => `select '${t}' as t, count(*)::text || ':' || coalesce(sum(hashtext(x::text)::bigint), 0)::text as v from "${t}" x`)
      .join(' union all '),
  );

  async function snapshot() {
    const { rows } = (await db.execute(snapshotSql)) as unknown as { rows: { t: string; v: string }[] };
    return new Map(rows.map((r) => [r.t, r.v]));
  }

  async function settle() {
    // Buffered counters (views, searches) are written on a timer: write them now, not during a request.
    await app.services.serviceCatalog.flushViews();
    await app.services.searchSuggestions.flush();
    await app.services.chat.idle();
  }

  async function nextXid() {
    const { rows } = (await db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`)) as unknown as { rows: { x: string }[] };
    return rows[0]!.x;
  }

  /** Uploaded files on disk; pictures' variants (made in the background after an upload, ADR 022) are theirs. */
  async function storedFiles() {
    await app.services.files.variants.settled();
    const root = path.join(dataDir, 'uploads');
    // Synchronous: the probe lists this handful of entries twice per write request, and Node 20's recursive
    // `fs.promises.readdir` takes about 0.5 ms for it (a round trip through libuv's thread pool per folder), the
    // synchronous one 0.04 ms. The fuzz suite ran in 88 s instead of 122 (FUZZ_BAD=30, on PostgreSQL).
    let entries: Dirent[];
    try {
      entries = readdirSync(root, { recursive: true, withFileTypes: true });
    } catch {
      entries = [];
    }
    return entries.filter((e) => e.isFile() && !parseVariantPath(path.relative(root, path.join(e.parentPath, e.name)))).length;
  }

  return {
    app,
    database,
    routes: recorder.routes,
    ids,
    dataDir,
    token: (actor) => (actor === 'guest' ? null : actors[actor].token),
    restore,
    snapshot,
    nextXid,
    settle,
    resetLimits,
    storedFiles,
    async close() {
      await test.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether anything was written between `start()` and `changes()`: the transaction counter first (free), the
 * checksums of all tables only when it moved (a write that rolled back moves it too but changes no checksum),
 * and the files in the uploads folder.
 */
export function changeProbe(world: World) {
  let last: { xid: string; snapshot: Map<string, string> } | undefined;
  const state = async () => {
    await world.settle();
    const xid = await world.nextXid();
    if (last?.xid !== xid) last = { xid, snapshot: await world.snapshot() };
    return last;
  };
  return {
    /** `files: false` leaves the uploads folder out (a read stores and deletes no file): one query less. */
    async start({ files = true }: { files?: boolean } = {}) {
      return { state: await state(), files: files ? await world.storedFiles() : null };
    },
    /** What changed since `from`, e.g. ["files 3→4 rows", "uploads 2→3 files"]; empty when nothing did. */
    async changes(from: { state: { snapshot: Map<string, string> }; files: number | null }): Promise<string[]> {
      const now = await state();
      const diffs =
        now.snapshot === from.state.snapshot
          ? []
          : [...now.snapshot]
              .filter(([t, v]) => from.state.snapshot.get(t) !== v)
              .map(([t, v]) => `${t} ${from.state.snapshot.get(t)?.split(':')[0]}→${v.split(':')[0]} rows`);
      if (from.files !== null) {
        const files = await world.storedFiles();
        if (files !== from.files) diffs.push(`uploads ${from.files}→${files} files`);
      }
      return diffs;
    },
  };
}

/** A random-looking but reproducible client address per request, so per-address limits do not pile up. */
export function addressOf(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');
