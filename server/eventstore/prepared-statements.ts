// Server-side prepared statements for the group commit's append. That statement (the event
// insert, the idempotency records and every projection's set-based update, as data-modifying
// CTEs) is some 14 KB of SQL: parsing and planning it cost the database more than running
// it, on every batch. Prepared once per connection, a batch only binds its values.
//
// Kysely and the pg driver send every statement unnamed, so this uses SQL's own PREPARE and
// EXECUTE, which PGlite runs the same way. EXECUTE takes its arguments as literals, not bind
// parameters: each value is written as an escaped string literal.
//
// A connection's prepared statements outlive rollbacks and last until it closes. Which
// connection a transaction runs on is told by its backend's process id, read by a column the
// caller adds to a statement it runs anyway (`backendColumn`), so knowing costs no round trip.
// Should that id come back on a new connection (a restart, a replaced connection), EXECUTE
// finds no statement: the transaction fails with StatementLost, which retryRace runs again,
// and the statement is prepared anew.
import { createHash, randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type QueryResult, type RawBuilder } from 'kysely';
import type { Transaction } from './types.js';

const COLUMN = 'backend_pid';
/** Distinct statements prepared per connection at most; beyond, a statement runs unprepared. */
const MAX_PER_CONNECTION = 16;

/** A column naming the transaction's connection, to add to a statement the caller runs anyway. */
export const backendColumn = sql`pg_backend_pid() as ${sql.id(COLUMN)}`;

/** The connection a row carrying `backendColumn` names. */
export function backendIn(row: object | undefined): number | undefined {
  const value = row && COLUMN in row ? (row as Record<string, unknown>)[COLUMN] : undefined;
  return value === undefined || value === null ? undefined : Number(value);
}

/** A prepared statement this process prepared is gone: its connection is not the one it was prepared on. */
export class StatementLost extends Error {
  constructor(name: string) {
    super(`prepared statement ${name} is gone (a new connection)`);
  }
}

/**
 * A value as an SQL string literal, whatever standard_conforming_strings says (E'' with
 * backslashes and quotes doubled); PostgreSQL casts it to the parameter's type. null for a
 * value that text cannot carry (a NUL character): the statement then runs unprepared.
 */
export function literal(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  const text =
    typeof value === 'string'
      ? value
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  if (text.includes('\0')) return null;
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The statements one database's connections have prepared, by backend process id. */
export class PreparedStatements {
  private readonly byBackend = new Map<number, Set<string>>();
  /** Names of their own per store: two stores on one database never take each other's for theirs. */
  private readonly prefix = `stockroom_${randomBytes(4).toString('hex')}_`;

  /** Runs `query` prepared on the transaction's connection (`backend`), preparing it there first if needed. */
  async execute<R>(trx: Transaction, query: RawBuilder<R>, backend: number): Promise<QueryResult<R>> {
    const compiled = query.compile(trx);
    const args = compiled.parameters.map(literal);
    const name = this.prefix + createHash('sha256').update(compiled.sql).digest('hex').slice(0, 24);
    let prepared = this.byBackend.get(backend);
    if (!prepared) this.byBackend.set(backend, (prepared = new Set()));
    if (args.includes(null) || (!prepared.has(name) && prepared.size >= MAX_PER_CONNECTION)) return query.execute(trx);
    if (!prepared.has(name)) {
      await trx.executeQuery(CompiledQuery.raw(`prepare ${name} as ${compiled.sql}`));
      prepared.add(name);
    }
    try {
      return await trx.executeQuery<R>(
        CompiledQuery.raw(`execute ${name}${args.length ? `(${args.join(', ')})` : ''}`),
      );
    } catch (error) {
      // 26000 invalid_sql_statement_name: this id is a new connection's.
      if ((error as { code?: string })?.code === '26000') {
        this.byBackend.delete(backend);
        throw new StatementLost(name);
      }
      throw error;
    }
  }
}
