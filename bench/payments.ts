/**
 * Payments benchmark (issue 12): payments per second and their latency on PostgreSQL. Many customers, each paying
 * their own order from the balance through HTTP `POST /api/payments/pay` with an `Idempotency-Key`, at a few
 * concurrency levels (BENCH_PAY_LEVELS, default "1,4,16,64"; BENCH_PAY_ORDERS, default 400, payments per level).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/payments.ts
 *
 * The benchmark makes its own database, podryad_bench_payments, and drops it after. The real server runs in this
 * process (as bench/catalog.ts); the clients run in a worker thread with their own event loop (fetch, kept-alive
 * connections), so the server's loop is not the load generator's too, though they share the machine's cores.
 * BENCH_PAY_PROFILE=1 runs the levels under V8's sampling profiler on the server's thread and prints where its CPU
 * went (BENCH_PAY_PROFILE=file.cpuprofile also keeps the raw profile).
 * Every payment is a full command: the idempotency claim, the order's and the balance's row locks, the ledger
 * transfer `escrow:<order>` (its hash chain serialises ledger writes on one row lock, ADR 025), the order's state,
 * the system message in its chat and the outbox rows, then the stored answer. The orders are made beforehand
 * through the order service (each with its chat), the balances by one top-up transfer.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { percentile, startBenchServer, startProfile, tsWorker } from './lib.ts';

const log = (message: string) => console.error(message); // progress on stderr keeps stdout pasteable

interface PayJob {
  url: string;
  concurrency: number;
  payments: { token: string; orderId: string }[];
}
interface PayResult {
  latencies: number[];
  failed: number;
  statuses: Record<string, number>;
  elapsedMs: number;
}

/** Worker thread: `concurrency` clients pay the job's orders, each request with a fresh Idempotency-Key. */
async function payWorker(job: PayJob): Promise<PayResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    for (;;) {
      const p = job.payments[next++];
      if (!p) return;
      const t0 = performance.now();
      try {
        const res = await fetch(`${job.url}/api/payments/pay`, {
          method: 'POST',
          headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({ order_id: p.orderId, method: 'balance' }),
        });
        const body = (await res.json()) as { result?: { status?: string } };
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 200 && body.result?.status === 'succeeded') latencies.push(performance.now() - t0);
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, client));
  return { latencies, failed, statuses, elapsedMs: performance.now() - started };
}

if (!isMainThread) {
  parentPort!.postMessage(await payWorker(workerData as PayJob));
}


const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

export async function runPaymentsBench(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('The payments benchmark runs on PostgreSQL only: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const levels = (process.env.BENCH_PAY_LEVELS ?? '1,4,16,64').split(',').map(Number);
  if (levels.some((l) => !Number.isInteger(l) || l < 1 || l > 512)) throw new Error('BENCH_PAY_LEVELS: integers 1–512, comma-separated');
  const perLevel = Number(process.env.BENCH_PAY_ORDERS ?? 400);
  if (!Number.isInteger(perLevel) || perLevel < 10) throw new Error('BENCH_PAY_ORDERS must be an integer ≥ 10');
  const total = perLevel * levels.length;

  const bench = await startBenchServer(adminUrl, 'payments');
  const { server } = bench;
  const { buildUser, createUser } = await import('../server/db/factories.ts');
  const { createService } = await import('../server/db/catalog-factories.ts');
  const { users } = await import('../server/modules/users/schema.ts');
  const { checkLedger, postTransfer } = await import('../server/modules/ledger/index.ts');
  const { systemActor } = await import('../server/platform/actor.ts');
  type UserRow = typeof users.$inferSelect;
  const { db } = server.database;
  const services = server.app.services;
  try {
    log(`making ${total} customers, their balances and ${total} orders…`);
    const prepStarted = performance.now();
    const seller = await createUser(db, { role: 'seller' });
    const service = await createService(db, seller.id, { price: 150_000 });
    const customers: UserRow[] = [];
    for (let i = 0; i < total; i += 500) {
      const chunk = await Promise.all(Array.from({ length: Math.min(500, total - i) }, () => buildUser()));
      customers.push(...(await db.insert(users).values(chunk).returning()));
    }
    // One transfer funds them all: 1 500 ₽ each, exactly one order's price.
    await services.platform.withTx(systemActor('bench'), (ctx) =>
      postTransfer(ctx.tx, {
        kind: 'payment',
        key: 'bench-top-up',
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -150_000 * customers.length },
          ...customers.map((c) => ({ account: { kind: 'available' as const, userId: c.id }, amount: 150_000 })),
        ],
      }),
    );
    const payments: PayJob['payments'] = [];
    for (let i = 0; i < customers.length; i += 8) {
      payments.push(
        ...(await Promise.all(
          customers.slice(i, i + 8).map(async (c) => {
            const order = await services.orders.create(c, { service_id: service.id, package: null, extras: [] });
            return { token: await services.tokens.sign(c), orderId: order._id };
          }),
        )),
      );
    }
    log(`prepared in ${((performance.now() - prepStarted) / 1000).toFixed(1)} s`);

    const rows: string[][] = [];
    const profileTo = process.env.BENCH_PAY_PROFILE;
    const profiler = profileTo ? await startProfile() : null;
    for (const [i, concurrency] of levels.entries()) {
      const share = payments.slice(i * perLevel, (i + 1) * perLevel);
      log(`paying ${share.length} orders with ${concurrency} concurrent clients…`);
      const result = await new Promise<PayResult>((resolve, reject) => {
        const worker = tsWorker(import.meta.url, { url: server.url, concurrency, payments: share } satisfies PayJob);
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const sorted = [...result.latencies].sort((a, b) => a - b);
      rows.push([
        String(concurrency),
        String(share.length),
        (result.latencies.length / (result.elapsedMs / 1000)).toFixed(0),
        ms(percentile(sorted, 0.5)),
        ms(percentile(sorted, 0.95)),
        ms(percentile(sorted, 0.99)),
        ms(sorted.at(-1) ?? NaN),
        String(result.failed) + (result.failed ? ` (${JSON.stringify(result.statuses)})` : ''),
      ]);
    }

    const profile = await profiler?.stop(profileTo === '1' ? undefined : profileTo);

    const check = await checkLedger(db);
    const counts = (await db.execute(
      sql`select (select count(*)::int from payments where status = 'succeeded') as paid,
        (select count(*)::int from orders where status = 'in_progress') as in_progress,
        (select count(*)::int from ledger_entries) as entries`,
    )) as unknown as { rows: { paid: number; in_progress: number; entries: number }[] };
    const version = ((await db.execute(sql`select split_part(version(), ' (', 1) as v`)) as unknown as { rows: { v: string }[] }).rows[0]!.v;

    console.log('## Подряд payments benchmark\n');
    console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${version}`);
    console.log(
      `- ${total} customers, one order each (1 500 ₽), paid from the balance by POST /api/payments/pay with a fresh Idempotency-Key; ` +
        `${perLevel} payments per level; the server in this process, the clients in a worker thread`,
    );
    console.log(
      `- After the run: ${counts.rows[0]!.paid} succeeded payments, ${counts.rows[0]!.in_progress} orders in progress, ` +
        `${counts.rows[0]!.entries} ledger entries; checkLedger: ${check.problems.length ? `**${check.problems.length} problem(s)**` : 'no problems'}\n`,
    );
    const lines = [['Concurrent clients', 'payments', 'payments/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'failed'], ...rows];
    const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
    const format = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
    console.log(format(lines[0]!));
    console.log(`|${widths.map((w) => ` ${'-'.repeat(w - 1)}: `).join('|')}|`);
    for (const line of lines.slice(1)) console.log(format(line));
    if (profile) console.log(`\nThe server's thread during the levels:\n\n${profile}`);
  } finally {
    await bench.close();
  }
}

if (isMainThread && process.argv[1] === import.meta.filename) await runPaymentsBench();
