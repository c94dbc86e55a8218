import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { userForToken, type Tokens } from '../lib/auth.ts';

export const userRoom = (userId: string) => `user:${userId}`;

interface SocketData {
  userId: string;
}

/** Bearer token from the handshake's auth data ("Bearer x" or the bare token). */
function handshakeToken(socket: Socket): string | null {
  const raw = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof raw !== 'string' || !raw) return null;
  return raw.startsWith('Bearer ') ? raw.slice(7) : raw;
}

export interface Realtime {
  io: Server;
  /** Sends an event to every socket of these users, on any instance. Call only after the commit. */
  emitToUsers(userIds: string[], event: string, payload: unknown): void;
  /** Which of these users have a socket connected right now, on any instance. */
  onlineAmong(userIds: string[]): Promise<Set<string>>;
  /** Drops every socket of a user (revoked token, blocked account), on any instance. */
  disconnectUser(userId: string): void;
  close(): Promise<void>;
}

export async function attachRealtime(opts: {
  server: HttpServer;
  db: Db;
  tokens: Tokens;
  log: Logger;
  redisUrl?: string;
}): Promise<Realtime> {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(opts.server, {
    path: '/socket.io/',
    // SPEC §4: long polling only.
    transports: ['polling'],
    serveClient: false,
    cors: undefined,
  });

  const redisClients: { quit(): Promise<unknown> }[] = [];
  if (opts.redisUrl) {
    const pub = createClient({ url: opts.redisUrl });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => opts.log.error({ err }, 'redis (socket adapter) error'));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub as never, sub as never));
    redisClients.push(pub, sub);
  }

  io.use(async (socket, next) => {
    try {
      const user = await userForToken(opts.db, opts.tokens, handshakeToken(socket));
      if (!user) return next(new Error('unauthorized'));
      socket.data.userId = user.id;
      next();
    } catch (err) {
      opts.log.error({ err }, 'socket auth failed');
      next(new Error('unavailable'));
    }
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
  });

  return {
    io: io as unknown as Server,
    emitToUsers(userIds, event, payload) {
      if (userIds.length) io.to(userIds.map(userRoom)).emit(event as never, payload as never);
    },
    async onlineAmong(userIds) {
      if (userIds.length === 0) return new Set();
      const sockets = await io.in([...new Set(userIds)].map(userRoom)).fetchSockets();
      return new Set(sockets.map((s) => s.data.userId));
    },
    disconnectUser(userId) {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    async close() {
      // Not io.close(): that would also close the HTTP server, which Fastify owns and closes itself.
      io.local.disconnectSockets(true);
      io.engine.close();
      await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
    },
  };
}
