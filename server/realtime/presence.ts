import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { chatMembers } from '../modules/chat/schema.ts';
import { users } from '../modules/users/schema.ts';

// Who is online: a person is online while any socket of theirs is connected, on any instance. Each instance
// counts its sockets per user; with Redis the counts are shared (one hash of totals, one hash per instance), so
// the first socket anywhere and the last one anywhere are told apart atomically. An instance that dies without
// saying goodbye stops refreshing its heartbeat key; the others then subtract its counts (sweep).

export interface PresenceRegistry {
  /** Counts one socket of the user in; true when it is the user's first socket anywhere. */
  join(userId: string): Promise<boolean>;
  /** Counts one socket out; true when it was the user's last socket anywhere. */
  leave(userId: string): Promise<boolean>;
  onlineAmong(userIds: string[]): Promise<Set<string>>;
  /**
   * Keeps this instance alive and removes instances that stopped without leaving. Returns the users who came
   * online again (this instance was taken for dead and re-adds its sockets) and those who went offline.
   */
  heartbeat(local: ReadonlyMap<string, number>): Promise<{ online: string[]; offline: string[] }>;
  /** This instance stops: its sockets are counted out at once. Returns the users who went offline. */
  close(): Promise<string[]>;
}

export function memoryPresence(): PresenceRegistry {
  const counts = new Map<string, number>();
  return {
    async join(userId) {
      const n = (counts.get(userId) ?? 0) + 1;
      counts.set(userId, n);
      return n === 1;
    },
    async leave(userId) {
      const n = (counts.get(userId) ?? 0) - 1;
      if (n > 0) {
        counts.set(userId, n);
        return false;
      }
      const was = counts.delete(userId);
      return was;
    },
    onlineAmong: async (userIds) => new Set(userIds.filter((id) => (counts.get(id) ?? 0) > 0)),
    heartbeat: async () => ({ online: [], offline: [] }),
    async close() {
      const gone = [...counts.keys()];
      counts.clear();
      return gone;
    },
  };
}

/** The part of a node-redis client the registry uses. */
export interface RedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hmGet(key: string, fields: string[]): Promise<(string | null)[]>;
  sMembers(key: string): Promise<string[]>;
  exists(key: string): Promise<number>;
}

const JOIN = `
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return redis.call('HINCRBY', KEYS[1], ARGV[1], 1)`;

// A leave after this instance was swept (its counts already subtracted) changes nothing.
const LEAVE = `
local mine = redis.call('HINCRBY', KEYS[2], ARGV[1], -1)
if mine <= 0 then redis.call('HDEL', KEYS[2], ARGV[1]) end
if mine < 0 then return -1 end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) return 0 end
return n`;

// Subtracts a dead instance's counts (unless its heartbeat came back meanwhile); returns who went offline.
const SWEEP = `
if redis.call('EXISTS', KEYS[3]) == 1 then return {} end
local entries = redis.call('HGETALL', KEYS[2])
local gone = {}
for i = 1, #entries, 2 do
  local n = redis.call('HINCRBY', KEYS[1], entries[i], -tonumber(entries[i + 1]))
  if n <= 0 then
    redis.call('HDEL', KEYS[1], entries[i])
    table.insert(gone, entries[i])
  end
end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[4], ARGV[1])
return gone`;

// Refreshes this instance's heartbeat. When it had been swept (its hash is gone), counts its sockets in again;
// returns who came back online. ARGV: instance id, ttl, then user id / count pairs.
const BEAT = `
local swept = redis.call('EXISTS', KEYS[2]) == 0 and redis.call('EXISTS', KEYS[3]) == 0
redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1])
local back = {}
if swept then
  for i = 3, #ARGV, 2 do
    local c = tonumber(ARGV[i + 1])
    redis.call('HINCRBY', KEYS[2], ARGV[i], c)
    if redis.call('HINCRBY', KEYS[1], ARGV[i], c) == c then table.insert(back, ARGV[i]) end
  end
end
return back`;

export function redisPresence(client: RedisCommands, opts: { instanceId: string; ttlMs: number; prefix?: string }): PresenceRegistry {
  const p = opts.prefix ?? 'podryad:presence:';
  const total = `${p}count`;
  const instances = `${p}instances`;
  const inst = (id: string) => `${p}inst:${id}`;
  const alive = (id: string) => `${p}alive:${id}`;
  const me = opts.instanceId;

  async function sweep(id: string): Promise<string[]> {
    return (await client.eval(SWEEP, { keys: [total, inst(id), alive(id), instances], arguments: [id] })) as string[];
  }

  return {
    async join(userId) {
      const n = Number(await client.eval(JOIN, { keys: [total, inst(me), instances], arguments: [userId, me] }));
      return n === 1;
    },
    async leave(userId) {
      const n = Number(await client.eval(LEAVE, { keys: [total, inst(me)], arguments: [userId] }));
      return n === 0;
    },
    async onlineAmong(userIds) {
      const ids = [...new Set(userIds)];
      if (ids.length === 0) return new Set();
      const values = await client.hmGet(total, ids);
      return new Set(ids.filter((_, i) => Number(values[i] ?? 0) > 0));
    },
    async heartbeat(local) {
      const pairs = [...local].flatMap(([userId, n]) => (n > 0 ? [userId, String(n)] : []));
      const online = (await client.eval(BEAT, { keys: [total, inst(me), alive(me), instances], arguments: [me, String(opts.ttlMs), ...pairs] })) as string[];
      const offline: string[] = [];
      for (const id of await client.sMembers(instances)) {
        if (id === me || (await client.exists(alive(id)))) continue;
        offline.push(...(await sweep(id)));
      }
      return { online, offline };
    },
    async close() {
      await client.eval(`redis.call('DEL', KEYS[1])`, { keys: [alive(me)], arguments: [] });
      return sweep(me);
    },
  };
}

/** The people who share a chat with the user (whom their online status concerns). */
export async function coMembersOf(db: Db, userId: string): Promise<string[]> {
  const mine = db.select({ chatId: chatMembers.chatId }).from(chatMembers).where(eq(chatMembers.userId, userId));
  const rows = await db
    .selectDistinct({ userId: chatMembers.userId })
    .from(chatMembers)
    .where(and(inArray(chatMembers.chatId, mine), ne(chatMembers.userId, userId)));
  return rows.map((r) => r.userId);
}

/** Marks users as seen now (users.last_seen_at: "online now" filters, "был в сети …"). */
export async function touchLastSeen(db: Db, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.update(users).set({ lastSeenAt: sql`now()` }).where(inArray(users.id, userIds));
}
