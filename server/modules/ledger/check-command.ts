// npm run ledger:check: recomputes every balance from the entries, checks that every transfer balances and that
// the hash chain is whole, on the database the server uses (DATABASE_URL, else PGlite in DATA_DIR/db). Exits 1 on
// any difference, 2 when the check itself could not run. Stop a PGlite server first: PGlite has one writer.
import { openDatabase } from '../../db/client.ts';
import { checkLedger } from './ledger.ts';

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR || './data';

try {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    // As the server would at boot: a database from before the ledger gets its tables (and an empty ledger).
    await database.migrate();
    const started = performance.now();
    const report = await checkLedger(database.db);
    const ms = Math.round(performance.now() - started);
    console.log(`ledger: ${report.entries} entries, ${report.transfers} transfers, ${report.accounts} accounts checked in ${ms} ms`);
    for (const problem of report.problems) console.log(`  ${problem.kind}: ${problem.detail}`);
    console.log(report.problems.length ? `ledger: ${report.problems.length} problem(s)` : 'ledger: balances, transfers and chain agree');
    process.exitCode = report.problems.length ? 1 : 0;
  } finally {
    await database.close();
  }
} catch (err) {
  console.error('ledger: the check could not run:', err);
  process.exitCode = 2;
}
