import { TURNSTILE_DUMMY_TOKEN } from '../../lib/turnstile.ts';
import { API_ERROR_CODES } from '#contract/messages';
import { generatedCases } from './generated.ts';
import { casesOf, escapeControls, queryString, type Case, type CaseContext, type InputClass } from './cases.ts';
import type { Operation } from './operations.ts';
import type { Hints } from './schema.ts';
import { ACTORS, addressOf, changeProbe, PASSWORD, type ActorName, type Ids, type World } from './world.ts';

// Sends every case of every operation as every actor and collects what went wrong, without stopping.

/**
 * - 5xx: any answer >= 500;
 * - write-on-4xx: a refused request changed a table or the stored files;
 * - timeout: no answer in time;
 * - not-russian: a 4xx whose `message` has no Russian in it (SPEC §8's English codes aside);
 * - accepted-invalid: a generated request the contract refuses answered 2xx.
 */
export type FailureKind = '5xx' | 'write-on-4xx' | 'timeout' | 'not-russian' | 'accepted-invalid';

export interface Failure {
  kind: FailureKind;
  /** The endpoint's name in ROUTES, else "METHOD path". */
  endpoint: string;
  method: string;
  path: string;
  actor: ActorName;
  cls: InputClass;
  where: string;
  status: number;
  message: string;
  /** What changed (tables, stored files) for write-on-4xx. */
  changed?: string;
  /** The hostile part of the request, decoded. */
  value: string;
  /** A request that reproduces it. */
  repro: string;
}

/** The stable name of a failure in the report: endpoint, input class, kind. */
export const failureKey = (f: Pick<Failure, 'endpoint' | 'cls' | 'kind'>) => `${f.endpoint} · ${f.cls} · ${f.kind}`;

const RUSSIAN = /[А-Яа-яЁё]/;
/** SPEC §8 fixes these refusals in English (the client maps them to Russian texts). */
const ENGLISH_BY_SPEC = new Set<string>(Object.values(API_ERROR_CODES));
export const russianMessage = (message: string) => RUSSIAN.test(message) || ENGLISH_BY_SPEC.has(message);

export interface FuzzStats {
  requests: number;
  byClass: Partial<Record<InputClass, number>>;
  msByClass: Partial<Record<InputClass, number>>;
  /** Status of the valid request per operation and actor: shows how deep the other cases could reach. */
  baselines: { method: string; path: string; actor: ActorName; status: number; message: string }[];
  /** Answers per status, to see at a glance how many cases got past validation. */
  byStatus: Record<string, number>;
  /** The listings' real cursors the cursor cases started from, by operation. */
  cursors: Record<string, string[]>;
  slowest: { ms: number; method: string; path: string; actor: ActorName; cls: InputClass; where: string }[];
  ms: number;
  /** Time spent putting fixtures back and building cases (the rest is requests and write checks). */
  restoreMs: number;
  buildMs: number;
  /** Generated bad requests sent, by endpoint; how many of them the contract refuses. */
  generated: Record<string, number>;
  refused: number;
  /** Answers to the generated requests by status; the 2xx ones by endpoint (input the endpoint ignores). */
  generatedByStatus: Record<string, number>;
  generatedOk: Record<string, number>;
  /** Wall time per operation (all its cases, all actors, restores included). */
  msByOperation: Record<string, number>;
}

export interface FuzzOptions {
  /** fast-check draws per operation (schema-valid requests; random cursors of a listing). */
  runs: number;
  /** Generated bad requests per endpoint of ROUTES (generated.ts), sent as the owner or the admin. */
  bad: number;
  seed: number;
  exhaustive: boolean;
  /** A request that takes longer is given up and reported (it would hold the event loop of a real server). */
  timeoutMs: number;
  /** Tables an operation may write to when it answers 4xx (e.g. a record of failed attempts), by "METHOD path". */
  allowedWrites?: Record<string, string[]>;
}

/**
 * Cases sent as every actor; the rest (one position made hostile, parser-level breakage) go to the primary actor
 * only, since who sends them changes nothing before the handler (all actors in the long run).
 */
const sharedCase = (c: Case) =>
  ['baseline', 'extra-field', 'empty-body', 'oversized', 'multipart'].includes(c.cls) || (c.cls === 'deep-json' && c.where === 'body');

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Known good values by field name, so that a base request gets past validation and into the handler. */
function hintsOf(ids: Ids): Hints {
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${++n}`;
  return {
    category: () => 'design',
    sub: () => null, // a sub-category must belong to the category: none is always right
    images: () => [ids.fileUrl],
    attachments: () => [ids.fileUrl],
    files: () => [ids.fileUrl],
    filePath: () => ids.filePath,
    city: () => ids.city,
    country: () => ids.country,
    chat_id: () => ids.chat,
    service_id: () => ids.peerService,
    recipient: () => ids.peer,
    id: () => ids.peerService,
    email: () => `fuzz_${unique()}@example.com`,
    user_name: () => `fuzz_${unique()}`,
    // The actors' own password: a password change or an email change gets through to the end.
    password: () => PASSWORD,
    repeat_password: () => PASSWORD,
    current_password: () => PASSWORD,
    // A state change that is possible from the fixtures' published state (restored after each write).
    status: () => 'hidden',
    'cf-turnstile-response': () => TURNSTILE_DUMMY_TOKEN,
    personal_data_consent: () => true,
    version: () => 1,
    token: () => 'x'.repeat(43),
    path: () => '/services',
    q: () => 'презентация',
    message: () => 'Здравствуйте, интересует заказ',
    tags: () => ['дизайн', 'логотип'],
    // A bid's stages must sum to its price and days (ADR 065): none is always right.
    stages: () => null,
  };
}

/** Customers post projects and sellers services: the member is in the mode the operation needs. */
const memberRoleFor = (op: Operation) => (op.path.startsWith('/api/projects') ? 'customer' : 'seller');

/** A real value for a path parameter, chosen by the path around it. */
function realParam(ids: Ids, path: string, name: string): string {
  if (name === '*') return path.startsWith('/uploads') ? ids.filePath : 'no-such-endpoint';
  if (name === 'part') return 'services-1.xml';
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  if (/chat/i.test(name) || before === 'chat' || before === 'chats') return ids.chat;
  if (before === 'services') return ids.service;
  if (before === 'projects') return ids.project;
  if (before === 'users') return ids.member;
  if (before === 'messages') return ids.message;
  return ids.service;
}

interface Sent {
  status: number;
  message: string;
  ms: number;
  timedOut: boolean;
}

function describeRequest(op: Operation, c: Case, url: string): string {
  const type = c.body?.contentType ? ` [${c.body.contentType}]` : '';
  let body = '';
  // Binary and long bodies by their description (multipart ones are named as in hostileMultipart()).
  if (c.body) body = Buffer.isBuffer(c.body.payload) || c.body.payload.length > 240 ? ` <${c.show}>` : ` ${escapeControls(c.body.payload)}`;
  const shortUrl = url.length > 300 ? `${url.slice(0, 300)}…` : url;
  return `${op.method} ${shortUrl}${type}${body}`;
}

export async function runFuzz(world: World, ops: Operation[], options: FuzzOptions): Promise<{ failures: Failure[]; stats: FuzzStats }> {
  const started = Date.now();
  const failures: Failure[] = [];
  const stats: FuzzStats = {
    requests: 0,
    byClass: {},
    msByClass: {},
    baselines: [],
    byStatus: {},
    cursors: {},
    slowest: [],
    ms: 0,
    restoreMs: 0,
    buildMs: 0,
    generated: {},
    refused: 0,
    generatedByStatus: {},
    generatedOk: {},
    msByOperation: {},
  };
  const timed = async <T>(key: 'restoreMs' | 'buildMs', fn: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      stats[key] += performance.now() - t0;
    }
  };
  const { app } = world;

  const probe = changeProbe(world);

  async function send(op: Operation, c: Case, actor: ActorName): Promise<{ sent: Sent; url: string; changed?: string }> {
    const n = ++stats.requests;
    stats.byClass[c.cls] = (stats.byClass[c.cls] ?? 0) + 1;
    let url = op.path.replace(/\{([^{}]+)\}/g, (_, name: string) => c.params[name] ?? realParam(world.ids, op.path, name));
    if (c.query) url += `?${c.query}`;
    const token = world.token(actor);
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (c.body?.contentType) headers['content-type'] = c.body.contentType;
    const write = WRITE.has(op.method);
    await world.resetLimits();
    // Reads are probed too (a refused read must not write either), without the uploads folder.
    const before = await probe.start({ files: write });
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      app
        .inject({ method: op.method as 'GET', url, headers, payload: c.body?.payload, remoteAddress: addressOf(n) })
        .then((res) => {
          let message: string;
          try {
            message = String((res.json() as { message?: unknown }).message ?? '');
          } catch {
            message = res.body.slice(0, 80);
          }
          return { status: res.statusCode, message, timedOut: false };
        }),
      new Promise<{ status: number; message: string; timedOut: boolean }>((resolve) => {
        timer = setTimeout(() => resolve({ status: 0, message: `no answer in ${options.timeoutMs} ms`, timedOut: true }), options.timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    const sent = { ...answer, ms: performance.now() - t0 };
    stats.byStatus[sent.status] = (stats.byStatus[sent.status] ?? 0) + 1;
    let changed: string | undefined;
    if (sent.status >= 400 && sent.status < 500) {
      const allowed = options.allowedWrites?.[`${op.method} ${op.path}`] ?? [];
      const diffs = (await probe.changes(before)).filter((d) => !allowed.includes(d.split(' ', 1)[0]!));
      if (diffs.length) changed = diffs.join(', ');
    }
    return { sent, url, changed };
  }

  /** Real cursors of a listing, one per sort, from its first page of one row. */
  async function cursorsOf(op: Operation, actor: ActorName): Promise<CaseContext['cursors']> {
    const sortParam = op.query.find((p) => p.name === 'sort');
    const sorts: (string | undefined)[] = (sortParam?.schema.enum as string[] | undefined) ?? [undefined];
    const limit = op.query.find((p) => p.name === 'limit');
    const out: CaseContext['cursors'] = [];
    const searchable = op.query.some((p) => p.name === 'q');
    for (const sort of [...sorts, ...(sortParam && searchable ? (['relevance'] as const) : [])]) {
      // Relevance is the order of a search without a sort of its own.
      const pairs: [string, string][] = sort === 'relevance' ? [['q', 'презентация']] : sort ? [['sort', sort]] : [];
      const required = op.query.filter((p) => p.required && p.name !== 'sort' && p.name !== 'limit');
      const base: [string, string][] = required.map((p) => [p.name, String(p.schema.enum?.[0] ?? 'x')]);
      const token = world.token(actor);
      const url = `${op.path}?${queryString([...base, ...pairs, ...(limit ? ([['limit', '1']] as [string, string][]) : [])])}`;
      const res = await app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
      const next = res.statusCode === 200 ? (res.json() as { next?: string | null }).next : null;
      if (next) out.push({ name: sort ?? 'default', pairs, cursor: next });
    }
    return out;
  }

  for (const op of ops) {
    const opStarted = performance.now();
    const memberRole = memberRoleFor(op);
    // Every case goes to the actor who gets furthest (the owner, or the admin on the admin API); the others get
    // the request-level classes (auth and parsing come before the handler, so positions add nothing there).
    const primaryActor: ActorName = op.path.startsWith('/api/admin') ? 'admin' : 'member';
    await timed('restoreMs', () => world.restore(memberRole));
    const ctx: CaseContext = {
      hints: hintsOf(world.ids),
      peerId: world.ids.peer,
      cursors: op.query.some((p) => p.name === 'cursor') ? await cursorsOf(op, primaryActor) : [],
      runs: options.runs,
      seed: options.seed,
      exhaustive: options.exhaustive,
    };
    if (ctx.cursors.length) stats.cursors[`${op.method} ${op.path}`] = ctx.cursors.map((c) => c.name);
    const all = await timed('buildMs', () => [
      ...casesOf(op, ctx),
      // Only endpoints of ROUTES get generated bad requests; routes outside it keep the fixed lists.
      ...(op.name ? generatedCases(op, { hints: ctx.hints, realParam: (name) => realParam(world.ids, op.path, name), count: options.bad, seed: options.seed }) : []),
    ]);
    const endpoint = op.name ?? `${op.method} ${op.path}`;
    const generated = all.filter((c) => c.cls === 'generated');
    stats.generated[endpoint] = generated.length;
    stats.refused += generated.filter((c) => c.refused).length;
    for (const actor of ACTORS) {
      await timed('restoreMs', () => world.restore(memberRole));
      const turn = (c: Case) => ACTORS[(c.draw! + ACTORS.indexOf(primaryActor)) % ACTORS.length];
      const cases = all.filter((c) =>
        c.cls === 'generated'
          ? actor === primaryActor
          : c.draw !== undefined
            ? turn(c) === actor
            : actor === primaryActor || options.exhaustive || sharedCase(c),
      );
      for (const c of cases) {
        // Each write starts from the fixtures (the one before may have hidden, deleted or blocked something).
        if (WRITE.has(op.method)) await timed('restoreMs', () => world.restore(memberRole));
        const t0 = performance.now();
        const { sent, url, changed } = await send(op, c, actor);
        stats.msByClass[c.cls] = Math.round((stats.msByClass[c.cls] ?? 0) + performance.now() - t0);
        if (c.cls === 'generated') {
          stats.generatedByStatus[sent.status] = (stats.generatedByStatus[sent.status] ?? 0) + 1;
          if (sent.status < 300) stats.generatedOk[endpoint] = (stats.generatedOk[endpoint] ?? 0) + 1;
        }
        if (c.cls === 'baseline') {
          stats.baselines.push({ method: op.method, path: op.path, actor, status: sent.status, message: sent.message });
        }
        stats.slowest.push({ ms: Math.round(sent.ms), method: op.method, path: op.path, actor, cls: c.cls, where: c.where });
        if (stats.slowest.length > 20) stats.slowest = stats.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
        const kind: FailureKind | undefined = sent.timedOut
          ? 'timeout'
          : sent.status >= 500
            ? '5xx'
            : changed
              ? 'write-on-4xx'
              : // The API's refusals; routes outside ROUTES (sitemaps, robots.txt) answer search engines in plain text.
                op.name && sent.status >= 400 && !russianMessage(sent.message)
                ? 'not-russian'
                : c.refused && sent.status < 300
                  ? 'accepted-invalid'
                  : undefined;
        if (kind) {
          failures.push({
            kind,
            endpoint,
            method: op.method,
            path: op.path,
            actor,
            cls: c.cls,
            where: c.where,
            status: sent.status,
            message: sent.message,
            changed,
            value: c.show,
            repro: describeRequest(op, c, url),
          });
        }
      }
    }
    stats.msByOperation[op.name ?? `${op.method} ${op.path}`] = Math.round(performance.now() - opStarted);
  }
  stats.slowest = stats.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
  stats.ms = Date.now() - started;
  return { failures, stats };
}
