import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { Server, type BroadcastOperator, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { ClientToServerEvents, ServerEvent, ServerEventArgs, ServerToClientEvents } from '#contract/events';
import type { Db } from '../db/client.ts';
import { sessionForToken, type Tokens } from '../lib/auth.ts';
import { withTimeout } from '../lib/timeout.ts';
import { coMembersOf, memoryPresence, redisPresence, touchLastSeen, type PresenceRegistry } from './presence.ts';

export const userRoom = (userId: string) => `user:${userId}`;
/** Every socket opened with one session's tokens (ADR 055): ending the session disconnects them all. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** What the server keeps on each socket once the handshake is authenticated. */
export interface SocketData {
  userId: string;
  /** The session of the handshake's token; null for a token signed before sessions. */
  sessionId: string | null;
}

/** No events pass between instances besides the adapter's own. */
/** Signals between instances (through the Redis adapter): what one instance learnt that all must act on. */
export interface InterServerEvents {
  /** Public pages changed: drop the rendered ones (server/platform/page-cache.ts). */
  pagesChanged: () => void;
  /** An operator changed the settings: read them afresh (server/platform/settings.ts). */
  settingsChanged: () => void;
  /** An operator changed the route rules: read them afresh (server/modules/route-rules). */
  routeRulesChanged: () => void;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Bearer token from the handshake's auth data ("Bearer x" or the bare token). */
function handshakeToken(socket: Socket): string | null {
  const raw: unknown = socket.handshake.auth?.token;
  if (typeof raw !== 'string' || !raw) return null;
  return raw.startsWith('Bearer ') ? raw.slice(7) : raw;
}

/** Events queued while a transaction runs, sent once it has committed. */
export interface Outbox {
  emit<E extends ServerEvent>(userIds: readonly string[], event: E, ...args: ServerEventArgs<E>): void;
}

/** SPEC §7 update_user: sent to the people who share a chat with the user. */
export const UPDATE_USER_EVENT = 'update_user' satisfies ServerEvent;

/** How often a connected user's users.last_seen_at is refreshed (the "online now" filter looks 5 minutes back). */
export const LAST_SEEN_REFRESH_MS = 60_000;
/** An instance whose heartbeat is older than this is taken for dead and its sockets are counted out. */
export const PRESENCE_TTL_MS = 30_000;

export interface Realtime {
  io: RealtimeServer;
  /** Sends an event to every socket of these users, on any instance. Call only after the commit. */
  emitToUsers<E extends ServerEvent>(userIds: readonly string[], event: E, ...args: ServerEventArgs<E>): void;
  /**
   * Runs `work` (which commits its transaction) with an outbox, and sends what it queued only when `work`
   * succeeded: an event never tells about a change that was rolled back.
   */
  afterCommit<T>(work: (outbox: Outbox) => Promise<T>): Promise<T>;
  /** Which of these users have a socket connected right now, on any instance. */
  onlineAmong(userIds: string[]): Promise<Set<string>>;
  /** Drops every socket of a user (revoked token, blocked account), on any instance; but `exceptSession`'s. */
  disconnectUser(userId: string, exceptSession?: string | null): void;
  /** Drops every socket of one session (ended from the settings page), on any instance. */
  disconnectSession(sessionId: string): void;
  /** Tells the other instances (through Redis; alone, there are none). */
  toOtherInstances(signal: keyof InterServerEvents): void;
  /** Runs `fn` when another instance sends `signal`. */
  onOtherInstances(signal: keyof InterServerEvents, fn: () => void): void;
  /**
   * Drops this instance's sockets and counts them out of presence (their co-members hear "offline"); events can
   * still be sent to other instances. For Fastify's preClose: otherwise the HTTP server waits for the pending
   * long-polling requests (up to the ping interval) before onClose runs. Calling it again does nothing.
   */
  drain(): Promise<void>;
  /** drain(), then closes the Redis connections. */
  close(): Promise<void>;
}

/** The Socket.IO server on the app's HTTP server. */
function ioServer(server: HttpServer): RealtimeServer {
  return new Server(server, {
    path: '/socket.io/',
    // SPEC §4: long polling only.
    transports: ['polling'],
    serveClient: false,
    cors: undefined,
    // Every poll answer of 1 KB or more (engine.io's default threshold) was gzipped for browsers, and the usual
    // answer, a new_message event (the chat as the person sees it and the message), is about 1.5 KB: a zlib stream
    // per answer cost the server about a quarter of its CPU time per chat message (bench/chat.ts), and memory, to
    // save well under a kilobyte. Larger answers (long texts, several events at once) are still compressed.
    httpCompression: { threshold: 8 * 1024 },
    // Clients send nothing but engine.io's pongs and the handshake: a poll body of 1 MB (the default) is never
    // legitimate and would only be buffered.
    maxHttpBufferSize: 64 * 1024,
  });
}

/** With Redis: the adapter that reaches the other instances' sockets, and presence counted across instances. */
async function acrossInstances(io: RealtimeServer, redisUrl: string, prefix: string, log: Logger, ttlMs: number) {
  // Loaded only with Redis: the client and the adapter cost a few hundred milliseconds of every start (ADR 018).
  const [{ createClient }, { createAdapter }] = await Promise.all([import('redis'), import('@socket.io/redis-adapter')]);
  const pub = createClient({ url: redisUrl });
  const sub = pub.duplicate();
  for (const c of [pub, sub]) c.on('error', (err) => log.error({ err }, 'redis (socket adapter) error'));
  await Promise.all([pub.connect(), sub.connect()]);
  // The deployment's prefix on the adapter's channels: another deployment on this Redis never hears its events.
  io.adapter(createAdapter(publishingSafely(pub, log) as never, sub as never, { key: `${prefix}socket.io` }));
  return { clients: [pub, sub], presence: redisPresence(pub as never, { instanceId: randomUUID(), ttlMs, prefix: `${prefix}presence:` }) };
}

/** The prefix of a caller that names none (tests of one deployment). */
export const DEFAULT_REDIS_PREFIX = 'podryad:';

/** How long a stopping instance waits for Redis (presence, its connections) before it goes on without it. */
const REDIS_STOP_TIMEOUT_MS = 3_000;

/** How long a page waits for the shared online status before it shows this instance's alone. */
const PRESENCE_READ_TIMEOUT_MS = 300;

/**
 * The adapter's publisher, whose `publish` never rejects unheard (issue 29): the adapter does not await it, and
 * node-redis rejects it while Redis is down — an unhandled rejection that ended every instance within milliseconds.
 * An event published during an outage is lost, as one sent while a socket moves between instances is (ADR 013);
 * the clients catch up when they reconnect.
 */
export function publishingSafely<C extends object>(client: C, log: Pick<Logger, 'warn'>): C {
  let warned = 0;
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop !== 'publish') return value.bind(target);
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<unknown>).catch((err: unknown) => {
          // Once a second at most: an outage under load would otherwise write a line per event.
          if (Date.now() - warned > 1_000) log.warn({ err }, 'redis publish failed: the event reaches this instance only');
          warned = Date.now();
          return 0;
        });
    },
  });
}

/** A socket is its user's: the handshake's token names them, or the socket is refused. */
function authenticateSockets(io: RealtimeServer, opts: { db: Db; tokens: Tokens; log: Logger }, closing: () => boolean): void {
  io.use(async (socket, next) => {
    // A stopping instance takes no new sockets: the client reconnects to another one.
    if (closing()) return next(new Error('unavailable'));
    try {
      const signedIn = await sessionForToken(opts.db, opts.tokens, handshakeToken(socket));
      if (!signedIn) return next(new Error('unauthorized'));
      socket.data.userId = signedIn.user.id;
      socket.data.sessionId = signedIn.sessionId;
      next();
    } catch (err) {
      opts.log.error({ err }, 'socket auth failed');
      next(new Error('unavailable'));
    }
  });
}

/** Presence work in flight (joins, leaves, announcements), awaited before the connections close. */
function tracker() {
  const pending = new Set<Promise<unknown>>();
  const track = <T,>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  };
  return { track, settled: () => Promise.allSettled([...pending]) };
}

type Track = <T>(promise: Promise<T>) => Promise<T>;
type Fail = (what: string) => (err: unknown) => void;

/**
 * Tells co-members the user's state as it is when the event leaves (not as it was when the change began), one
 * announcement per user at a time, so a quick reconnect never ends with a stale "offline".
 */
function announcer(deps: { db: Db; presence: PresenceRegistry; emitToUsers: Realtime['emitToUsers']; track: Track; fail: Fail }) {
  const { db, presence, emitToUsers, track, fail } = deps;
  const announcing = new Map<string, Promise<void>>();
  return (userId: string) => {
    const previous = announcing.get(userId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const coMembers = await coMembersOf(db, userId);
      if (coMembers.length === 0) return;
      const online = (await presence.onlineAmong([userId])).has(userId);
      emitToUsers(coMembers, UPDATE_USER_EVENT, { id: userId, online_status: online });
    });
    const settled = next.catch(fail('presence announcement failed')).finally(() => {
      if (announcing.get(userId) === settled) announcing.delete(userId);
    });
    announcing.set(userId, settled);
    return track(settled);
  };
}

/** Counts each user's sockets here (`local`) and in the registry; the first to come and the last to go are announced. */
function countPresence(
  io: RealtimeServer,
  deps: { db: Db; presence: PresenceRegistry; local: Map<string, number>; announce: (userId: string) => Promise<void>; track: Track; fail: Fail; closing: () => boolean },
): void {
  const { db, presence, local, announce, track, fail } = deps;
  io.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    void socket.join(sessionId ? [userRoom(userId), sessionRoom(sessionId)] : userRoom(userId));
    local.set(userId, (local.get(userId) ?? 0) + 1);
    const joined = track(
      presence
        .join(userId)
        .then(async (first) => {
          await touchLastSeen(db, [userId]);
          if (first) await announce(userId);
        })
        .catch(fail('presence join failed')),
    );
    socket.on('disconnect', () => {
      const n = (local.get(userId) ?? 1) - 1;
      if (n > 0) local.set(userId, n);
      else local.delete(userId);
      if (deps.closing()) return;
      // After the join is counted, whatever the order in which the two finish.
      void track(
        joined
          .then(() => presence.leave(userId))
          .then(async (last) => {
            await touchLastSeen(db, [userId]);
            if (last) await announce(userId);
          })
          .catch(fail('presence leave failed')),
      );
    });
  });
}

/** The registry's heartbeat (with announcements of whoever it found come or gone) and the last-seen refresh. */
async function keepPresence(deps: {
  db: Db;
  presence: PresenceRegistry;
  local: Map<string, number>;
  announce: (userId: string) => Promise<void>;
  track: Track;
  fail: Fail;
  ttlMs: number;
}): Promise<{ stop(): void }> {
  const { db, presence, local, announce, track, fail, ttlMs } = deps;
  await presence.heartbeat(local);
  const beat = setInterval(() => {
    void track(
      presence
        .heartbeat(local)
        .then(({ online, offline }) => Promise.all([...online, ...offline].map(announce)))
        .catch(fail('presence heartbeat failed')),
    );
  }, Math.max(1000, Math.floor(ttlMs / 3)));
  const seen = setInterval(() => void track(touchLastSeen(db, [...local.keys()]).catch(fail('last seen refresh failed'))), LAST_SEEN_REFRESH_MS);
  beat.unref();
  seen.unref();
  return {
    stop() {
      clearInterval(beat);
      clearInterval(seen);
    },
  };
}

export interface RealtimeOptions {
  server: HttpServer;
  db: Db;
  tokens: Tokens;
  log: Logger;
  redisUrl?: string;
  /** What this deployment's Redis keys and channels start with (ADR 061). */
  redisPrefix?: string;
  /** Heartbeat lifetime of this instance's presence (tests shorten it). */
  presenceTtlMs?: number;
}

export async function attachRealtime(opts: RealtimeOptions): Promise<Realtime> {
  const io = ioServer(opts.server);

  const redisClients: { close(): Promise<unknown>; destroy(): void }[] = [];
  /** Set once the instance starts stopping (drain). */
  let closing = false;
  const ttlMs = opts.presenceTtlMs ?? PRESENCE_TTL_MS;
  let presence: PresenceRegistry = memoryPresence();
  if (opts.redisUrl) {
    const redis = await acrossInstances(io, opts.redisUrl, opts.redisPrefix ?? DEFAULT_REDIS_PREFIX, opts.log, ttlMs);
    redisClients.push(...redis.clients);
    presence = redis.presence;
  }
  authenticateSockets(io, opts, () => closing);

  // Once the Redis connections are closed an emit would fail unseen inside the adapter: nothing is sent then.
  let closed = false;
  const emitToUsers = <E extends ServerEvent>(userIds: readonly string[], event: E, ...args: ServerEventArgs<E>) => {
    if (closed || userIds.length === 0) return;
    // No event takes an acknowledgement, so the broadcast's map is the plain one (its emit then takes the args as
    // they are, also for a generic event).
    const users: BroadcastOperator<ServerToClientEvents, SocketData> = io.to([...new Set(userIds)].map(userRoom));
    users.emit(event, ...args);
  };

  const { track, settled: allSettled } = tracker();

  // Presence. `local` counts this instance's sockets per user; the registry counts them everywhere.
  const local = new Map<string, number>();
  const fail = (what: string) => (err: unknown) => opts.log.error({ err }, what);

  const announce = announcer({ db: opts.db, presence, emitToUsers, track, fail });
  countPresence(io, { db: opts.db, presence, local, announce, track, fail, closing: () => closing });

  const timers = await keepPresence({ db: opts.db, presence, local, announce, track, fail, ttlMs });

  let draining: Promise<void> | null = null;
  const drain = () =>
    (draining ??= (async () => {
      closing = true;
      timers.stop();
      // This instance's sockets are counted out at once; their people are told while the database is still open.
      const users = [...local.keys()];
      try {
        // Redis may be away while the instance stops (a deploy during an outage): the stop waits a bounded time.
        const offline = await withTimeout(presence.close(), REDIS_STOP_TIMEOUT_MS, 'presence close');
        await touchLastSeen(opts.db, users);
        await Promise.all(offline.map(announce));
      } catch (err) {
        fail('presence shutdown failed')(err);
      }
      // Not io.close(): that would also close the HTTP server, which Fastify owns and closes itself.
      io.local.disconnectSockets(true);
      io.engine.close();
    })());

  return {
    io,
    emitToUsers,
    async afterCommit(work) {
      const queued: (() => void)[] = [];
      const result = await work({ emit: (userIds, event, ...args) => void queued.push(() => emitToUsers(userIds, event, ...args)) });
      for (const send of queued) send();
      return result;
    },
    // Online status is optional (issue 29): while Redis is slow or down, a page shows who is connected here.
    onlineAmong: (userIds) =>
      withTimeout(presence.onlineAmong(userIds), PRESENCE_READ_TIMEOUT_MS).catch(() => new Set(userIds.filter((id) => (local.get(id) ?? 0) > 0))),
    disconnectUser(userId, exceptSession) {
      const sockets = io.in(userRoom(userId));
      (exceptSession ? sockets.except(sessionRoom(exceptSession)) : sockets).disconnectSockets(true);
    },
    disconnectSession(sessionId) {
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    toOtherInstances(signal) {
      // The in-memory adapter refuses server-side events: with it, this is the only instance.
      if (opts.redisUrl) io.serverSideEmit(signal);
    },
    onOtherInstances(signal, fn) {
      io.on(signal, fn);
    },
    drain,
    async close() {
      await drain();
      await withTimeout(allSettled(), REDIS_STOP_TIMEOUT_MS, 'presence work').catch(fail('presence work left unfinished at stop'));
      closed = true;
      // A graceful close waits for Redis's answer; with Redis away, the connection is dropped instead.
      await Promise.all(redisClients.map((c) => withTimeout(c.close(), REDIS_STOP_TIMEOUT_MS, 'redis close').catch(() => c.destroy())));
    },
  };
}
