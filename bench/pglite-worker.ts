/**
 * Would PGlite in a worker thread pay? `node --import tsx bench/pglite-worker.ts`
 *
 * The same in-memory database (BENCH_ROWS (20,000) service-like rows) answers the same listing query — 24 rows of a
 * page, the shape an SSR render asks for — in two set-ups: PGlite on the main thread, and PGlite in a worker thread
 * behind postMessage. For each it reports the time per query, and how much of it the main thread is blocked (the
 * cost a query takes away from rendering and socket work): all of it on the main thread, only the message
 * passing with a worker. BENCH_SECONDS (5) per measurement.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { tsWorker } from './lib.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 20_000;
const SECONDS = Number(process.env.BENCH_SECONDS) || 5;
const QUERY = `select id, title, price, days, rating, reviews_count, images, created_at
  from services where category = $1 and status = 'active' order by created_at desc, id desc limit 24`;

async function open(rows: number): Promise<PGlite> {
  const db = await PGlite.create();
  await db.exec(`create table services (
    id uuid primary key default gen_random_uuid(), title text not null, description text not null,
    category int not null, status text not null, price int not null, days int not null, rating real not null,
    reviews_count int not null, images text[] not null, created_at timestamptz not null default now());
    create index on services (category, created_at desc, id desc) where status = 'active';`);
  await db.query(
    `insert into services (title, description, category, status, price, days, rating, reviews_count, images, created_at)
     select 'Услуга номер ' || g, repeat('Описание услуги. ', 40), g % 12, case when g % 10 = 0 then 'hidden' else 'active' end,
            1000 + g % 50000, 1 + g % 30, (g % 50) / 10.0, g % 200, array['/uploads/a/' || g || '.jpg'],
            now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g`,
    [rows],
  );
  await db.exec('analyze services');
  return db;
}

if (!isMainThread) {
  const db = await open((workerData as { rows: number }).rows);
  parentPort!.on('message', async ({ id, category }: { id: number; category: number }) => {
    const result = await db.query(QUERY, [category]);
    parentPort!.postMessage({ id, rows: result.rows });
  });
  parentPort!.postMessage('ready');
} else {
  const measure = async (name: string, run: (i: number) => Promise<unknown>, blockedMs: () => number) => {
    for (let i = 0; i < 200; i++) await run(i); // warm-up
    const start = performance.now();
    const blockedBefore = blockedMs();
    let n = 0;
    while (performance.now() - start < SECONDS * 1000) await run(n++);
    const elapsed = performance.now() - start;
    const blocked = blockedMs() - blockedBefore;
    console.log(`| ${name} | ${((elapsed / n) * 1000).toFixed(0)} µs | ${((blocked / n) * 1000).toFixed(0)} µs | ${Math.round((n / elapsed) * 1000)} |`);
  };

  console.log(`## PGlite on the main thread vs in a worker (${ROWS} rows, a 24-row listing page)\n`);
  console.log('| set-up | time per query | main thread busy per query | queries/s |');
  console.log('| --- | ---: | ---: | ---: |');

  // Main thread: the whole query is main-thread time (PGlite's WASM runs synchronously inside the call).
  const db = await open(ROWS);
  let busy = 0;
  await measure(
    'main thread',
    async (i) => {
      const t = performance.now();
      const result = await db.query(QUERY, [i % 12]);
      busy += performance.now() - t;
      return result;
    },
    () => busy,
  );
  await db.close();

  // Worker: the main thread only posts the request and takes the answer (structured clone of the rows).
  const worker = tsWorker(import.meta.url, { rows: ROWS });
  await new Promise((resolve) => worker.once('message', resolve));
  const pending = new Map<number, (rows: unknown) => void>();
  let onMain = 0;
  worker.on('message', ({ id, rows }: { id: number; rows: unknown }) => {
    const t = performance.now();
    pending.get(id)!(rows);
    pending.delete(id);
    onMain += performance.now() - t;
  });
  let nextId = 0;
  await measure(
    'worker thread',
    (i) =>
      new Promise((resolve) => {
        const t = performance.now();
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ id, category: i % 12 });
        onMain += performance.now() - t;
      }),
    // The structured-clone deserialisation happens before the 'message' listener runs and is not in onMain:
    // measured apart below and added.
    () => onMain,
  );
  // The answer's deserialisation on the main thread: clone a typical answer the same way.
  const sample = (await new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    worker.postMessage({ id, category: 1 });
  })) as unknown;
  const t = performance.now();
  for (let i = 0; i < 2000; i++) structuredClone(sample);
  console.log(`\n- Structured clone of one 24-row answer (serialise + deserialise): ${(((performance.now() - t) / 2000) * 1000).toFixed(0)} µs`);
  await worker.terminate();
}
