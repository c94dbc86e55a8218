/**
 * Order list benchmark (issue 12: "the order list at 100,000 orders"): GET /api/orders (a customer's and a
 * seller's lists, first and deep keyset pages, a status tab) and GET /api/admin/orders (a status filter, a deep
 * page) through the real HTTP server, over BENCH_ORDERS (100 000) orders generated with SQL across BENCH_USERS
 * (3 000) users.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/orders.ts
 *
 * The benchmark makes its own database, podryad_bench_orders, and drops it after. The orders are spread over a year
 * and over every state; one heavy customer and one heavy seller have a tenth of them each (10 000 at the default),
 * so that their lists have deep pages; the other users have a few dozen each. Latency is measured with one
 * connection (p50/p95/p99 are the time a request takes); BENCH_SECONDS (5) per target after 2 s of warm-up.
 * BENCH_ORDERS_PROFILE=1 prints where the server's thread spent its CPU during the targets (=file.cpuprofile keeps it).
 */
import os from 'node:os';
import pg from 'pg';
import { measure, startBenchServer, startProfile, type Row } from './lib.ts';

const DEEP_ROWS = 5_000;
const log = (message: string) => console.error(message); // progress on stderr keeps stdout pasteable


/**
 * Users and orders in bulk, in SQL. Users 1 and 2 (by their index) are the heavy customer and the heavy seller;
 * the first two thirds are customers, the rest sellers. Every state of an order gets the timestamps it would have.
 * The state turns with g / 10 too: the heavy ones' orders (every tenth g) are in every state, so that their tabs are
 * not empty (before session 30, the heavy customer's were all awaiting payment and the heavy seller's all completed).
 */
async function generate(client: pg.Client, n: number, usersN: number, passwordHash: string) {
  await client.query(
    `insert into users (user_name, email, name, surname, password_hash, roles, active_role, referral_code, email_confirmed_at)
     select 'bench_' || g, 'bench_' || g || '@example.com', 'Пользователь', 'Тестовый', $1,
            case when g <= $2 * 2 / 3 and g <> 2 then array['customer'] else array['seller'] end,
            case when g <= $2 * 2 / 3 and g <> 2 then 'customer' else 'seller' end,
            'B' || lpad(g::text, 7, '0'), now()
       from generate_series(1, $2) g`,
    [passwordHash, usersN],
  );
  // With a second factor set up: administrators must have one before the admin API answers them (ADR 054).
  await client.query(`insert into users (user_name, email, name, surname, password_hash, roles, active_role, referral_code, email_confirmed_at, two_factor_at)
    values ('bench_admin', 'bench_admin@example.com', 'Админ', 'Тестовый', $1, array['customer','admin'], 'customer', 'BADMIN00', now(), now())`, [passwordHash]);
  await client.query(
    `with c as (select array_agg(id order by user_name) a from users where active_role = 'customer' and user_name <> 'bench_1'),
          s as (select array_agg(id order by user_name) a from users where active_role = 'seller' and user_name <> 'bench_2'),
          heavy as (select (select id from users where user_name = 'bench_1') buyer, (select id from users where user_name = 'bench_2') seller),
          o as (
            select g,
                   case when g % 10 = 0 then heavy.buyer else c.a[1 + (g::bigint * 7919) % array_length(c.a, 1)] end customer_id,
                   case when g % 10 = 5 then heavy.seller else s.a[1 + (g::bigint * 104729) % array_length(s.a, 1)] end seller_id,
                   (array['awaiting_payment','in_progress','in_progress','delivered','completed','completed','completed','completed','cancelled','in_progress'])[1 + (g * 31 + g / 10) % 10] status,
                   now() - make_interval(secs => (g::double precision / $1) * 365 * 86400) created_at
              from generate_series(1, $1) g, c, s, heavy
          )
     insert into orders (customer_id, seller_id, title, price, days, revisions_left, revisions_total, commission_bp, status,
                         paid_at, deadline_at, delivered_at, completed_at, cancelled_at, created_at, updated_at)
     select customer_id, seller_id, 'Заказ для нагрузочного теста №' || g, 100000 + (g % 50) * 10000, 1 + g % 14, 1, 2, 1500, status,
            case when status <> 'awaiting_payment' then created_at + interval '1 hour' end,
            case when status <> 'awaiting_payment' then created_at + interval '1 hour' + make_interval(days => 1 + g % 14) end,
            case when status in ('delivered', 'completed') then created_at + interval '2 days' end,
            case when status = 'completed' then created_at + interval '3 days' end,
            case when status = 'cancelled' then created_at + interval '2 hours' end,
            created_at, created_at
       from o`,
    [n],
  );
  // As autovacuum keeps a live table: statistics, and the visibility map that lets a count be answered from an index.
  await client.query('vacuum (analyze) users, orders');
}

/** Follows `next` from a list's first page until DEEP_ROWS rows are behind the cursor. */
async function deepCursor(url: string, token: string): Promise<string> {
  let rows = 0;
  let cursor: string | null = null;
  while (rows < DEEP_ROWS) {
    const res = await fetch(`${url}${url.includes('?') ? '&' : '?'}limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`deep page: GET ${res.url}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { result: unknown[]; next: string | null };
    rows += body.result.length;
    if (!body.next) throw new Error(`deep page: ${url} ends after ${rows} rows`);
    cursor = body.next;
  }
  return cursor!;
}

export async function runOrdersBench(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('The order list benchmark runs on PostgreSQL only: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const n = Number(process.env.BENCH_ORDERS ?? 100_000);
  const usersN = Number(process.env.BENCH_USERS ?? 3_000);
  if (!Number.isInteger(n) || n < 10_000) throw new Error('BENCH_ORDERS must be an integer ≥ 10 000');
  if (!Number.isInteger(usersN) || usersN < 30) throw new Error('BENCH_USERS must be an integer ≥ 30');
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);

  const bench = await startBenchServer(adminUrl, 'orders');
  const { server, databaseUrl: benchUrl } = bench;
  const { buildUser } = await import('../server/db/factories.ts');
  const client = new pg.Client({ connectionString: benchUrl });
  await client.connect();
  try {
    log(`generating ${n.toLocaleString('en-US')} orders across ${usersN.toLocaleString('en-US')} users…`);
    const genStarted = performance.now();
    await generate(client, n, usersN, (await buildUser()).passwordHash);
    const genSeconds = (performance.now() - genStarted) / 1000;
    const people = (await client.query<{ user_name: string; id: string; token_version: number }>(
      `select user_name, id, token_version from users where user_name in ('bench_1', 'bench_2', 'bench_admin', 'bench_3')`,
    )).rows;
    const { users } = await import('../server/modules/users/schema.ts');
    const { inArray } = await import('drizzle-orm');
    const rows = await server.database.db.select().from(users).where(inArray(users.id, people.map((p) => p.id)));
    const tokenOf = async (userName: string) => server.app.services.tokens.sign(rows.find((r) => r.userName === userName)!);
    const [buyer, seller, adminToken, light] = await Promise.all(['bench_1', 'bench_2', 'bench_admin', 'bench_3'].map(tokenOf));
    const counts = (await client.query<{ buyer: string; seller: string; light: string; completed: string; size: string; bought: string; working: string }>(
      `select (select count(*) from orders o join users u on u.id = o.customer_id where u.user_name = 'bench_1') buyer,
              (select count(*) from orders o join users u on u.id = o.seller_id where u.user_name = 'bench_2') seller,
              (select count(*) from orders o join users u on u.id = o.customer_id where u.user_name = 'bench_1' and o.status = 'completed') bought,
              (select count(*) from orders o join users u on u.id = o.seller_id where u.user_name = 'bench_2' and o.status = 'in_progress') working,
              (select count(*) from orders o join users u on u.id = o.customer_id where u.user_name = 'bench_3') light,
              (select count(*) from orders where status = 'completed') completed,
              pg_size_pretty(pg_table_size('orders')) || ' + indexes ' || pg_size_pretty(pg_indexes_size('orders')) size`,
    )).rows[0]!;
    const version = (await client.query<{ v: string }>(`select split_part(version(), ' (', 1) v`)).rows[0]!.v;

    const api = `${server.url}/api`;
    log('finding the deep pages…');
    const buyerDeep = await deepCursor(`${api}/orders?role=buying`, buyer!);
    const adminDeep = await deepCursor(`${api}/admin/orders?status=completed`, adminToken!);
    const targets: [string, string, string][] = [
      [`Buying, first page (a customer with ${Number(counts.buyer).toLocaleString('en-US')} orders)`, `${api}/orders?role=buying&limit=20`, buyer!],
      [`Buying, deep page (after ${DEEP_ROWS.toLocaleString('en-US')} rows)`, `${api}/orders?role=buying&limit=20&cursor=${encodeURIComponent(buyerDeep)}`, buyer!],
      [`Buying, tab "completed" (${Number(counts.bought).toLocaleString('en-US')}), first page`, `${api}/orders?role=buying&status=completed&limit=20`, buyer!],
      [`Buying, first page (a customer with ${counts.light} orders)`, `${api}/orders?role=buying&limit=20`, light!],
      [`Selling, first page (a seller with ${Number(counts.seller).toLocaleString('en-US')} orders)`, `${api}/orders?role=selling&limit=20`, seller!],
      [`Selling, tab "in_progress" (${Number(counts.working).toLocaleString('en-US')}), first page`, `${api}/orders?role=selling&status=in_progress&limit=20`, seller!],
      ['Admin, all orders, first page', `${api}/admin/orders?limit=20`, adminToken!],
      [`Admin, status=completed (${Number(counts.completed).toLocaleString('en-US')}), first page`, `${api}/admin/orders?status=completed&limit=20`, adminToken!],
      [`Admin, status=completed, deep page (after ${DEEP_ROWS.toLocaleString('en-US')} rows)`, `${api}/admin/orders?status=completed&limit=20&cursor=${encodeURIComponent(adminDeep)}`, adminToken!],
    ];
    const results: Row[] = [];
    const profileTo = process.env.BENCH_ORDERS_PROFILE;
    const profiler = profileTo ? await startProfile() : null;
    for (const [name, url, token] of targets) {
      log(`measuring ${name}…`);
      results.push(await measure(name, url, { connections: 1, seconds, request: { headers: { authorization: `Bearer ${token}` } } }));
    }
    const profile = await profiler?.stop(profileTo === '1' ? undefined : profileTo);
    if (profile) console.log(`The server's thread during the targets:\n\n${profile}\n`);

    console.log(`## Подряд order list benchmark, ${n.toLocaleString('en-US')} orders\n`);
    console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${version}`);
    console.log(`- Dataset (generated in ${genSeconds.toFixed(1)} s): ${n.toLocaleString('en-US')} orders over a year, ${usersN.toLocaleString('en-US')} users; orders table ${counts.size}`);
    console.log(`- autocannon from a worker thread, 1 connection, ${seconds} s per target after 2 s warm-up; 20 orders a page\n`);
    const lines = [
      ['Target', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', 'failed'],
      ...results.map((r) => [r.name, r.p50.toFixed(2), r.p95.toFixed(2), r.p99.toFixed(2), Math.round(r.rps).toLocaleString('en-US'), String(r.failed)]),
    ];
    const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
    const format = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    console.log(format(lines[0]!));
    console.log(`|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`);
    for (const line of lines.slice(1)) console.log(format(line));
  } finally {
    await client.end();
    await bench.close();
  }
}

if (process.argv[1] === import.meta.filename) await runOrdersBench();
