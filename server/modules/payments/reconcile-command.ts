// npm run payments:reconcile -- [--day YYYY-MM-DD]: compares a UTC day's payments (yesterday by default) with each
// configured provider's own list of them, as the daily job does, on the database and providers the server uses
// (its env: DATABASE_URL or DATA_DIR, YOOKASSA_*, BTCPAY_*). Prints what differs and what to do; exits 1 while any
// difference is unresolved (this day's or an earlier one's), 2 when the check could not run. Stop a PGlite
// server first: PGlite has one writer.
import pino from 'pino';
import { DIFFERENCE_TEXTS } from '#contract/payment-differences';
import { openDatabase } from '../../db/client.ts';
import { loadEnv } from '../../env.ts';
import { buildApp } from '../../app.ts';
import { dayBounds } from './commands/reconcile.ts';

const args = process.argv.slice(2);
const dayAt = args.indexOf('--day');
const day = dayAt >= 0 ? args[dayAt + 1] : undefined;

try {
  if (day !== undefined && !dayBounds(day)) throw new Error(`--day wants a date YYYY-MM-DD, not ${day}`);
  const env = loadEnv(process.env);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    const app = await buildApp({ env, database, logger: pino({ level: 'warn' }), web: false });
    try {
      const payments = app.services.payments;
      const reports = await payments.reconcile(day);
      if (!reports.length) console.log('reconcile: no configured provider can list its payments');
      for (const report of reports) {
        const head = report.listed === null ? `not checked (${report.error})` : `${report.listed} record(s) listed (payments, payouts, refunds), ${report.found.length} difference(s)`;
        console.log(`reconcile ${day ?? 'yesterday'} ${report.provider}: ${head}`);
        for (const f of report.found) console.log(`  ${f.kind} ${f.providerRef}${f.paymentId ? ` (payment ${f.paymentId})` : ''}: ${DIFFERENCE_TEXTS[f.kind].title} ${JSON.stringify(f.details)}`);
      }
      const open = (await payments.differences(1000)).filter((d) => d.resolved_at === null);
      for (const d of open) console.log(`unresolved ${d.day} ${d.provider} ${d.kind} ${d.provider_ref}: ${DIFFERENCE_TEXTS[d.kind].todo}`);
      console.log(open.length ? `reconcile: ${open.length} unresolved difference(s), see /admin/payments` : 'reconcile: no unresolved differences');
      process.exitCode = reports.some((r) => r.listed === null) ? 2 : open.length ? 1 : 0;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
} catch (err) {
  console.error('reconcile: the check could not run:', err);
  process.exitCode = 2;
}
