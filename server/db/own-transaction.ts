/**
 * A query through the pool from inside a transaction's work. On PGlite, which has one connection, it would wait for
 * that transaction forever (ADR 069), so it is refused there; the tests' PostgreSQL refuses it too (ADR 094), so that
 * a file run on PostgreSQL alone still finds it.
 */
export class WaitsForItsOwnTransaction extends Error {
  constructor(readonly query: string) {
    super(`A query through the pool inside a transaction's work would wait for that transaction forever on PGlite: use its tx. Query: ${query.slice(0, 200)}`);
  }
}
