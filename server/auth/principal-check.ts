// How a route checks a cached principal without a round trip of its own: it adds
// `stampColumns` to the statement it runs anyway (the current versions of the principals'
// user, role and settings rows, and of the custom roles they hold at sites: primary-key and
// index lookups) and hands the row back to
// `confirmPrincipal` (auth-plugin.ts), which resolves afresh only if a version moved. See
// principal-cache.ts for why. A batch of commands does the same with `principalStampHook`
// (its lock statement carries the stamps; each command's principal is settled before it is decided).
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { withHook, type BatchHook, type HookUse } from '../eventstore/batch-hooks.js';
import { confirmPrincipal } from './auth-plugin.js';
import { actorOf, type Principal, type PrincipalStamp } from './principal.js';

/** The column's name: rows that carry it are read by stampIn. */
const STAMPS = 'principal_stamps';

/** The key a principal's stamp goes by in the column (a user's requests may hold different roles). */
const keyOf = (principal: Principal) => JSON.stringify([principal.uid, principal.role]);

/**
 * A column reporting the current stamps of these principals' rows (migration 008's
 * principal_stamp, whose lookups are planned once per connection).
 */
export function stampColumns(principals: Principal[]): RawBuilder<unknown> {
  const unique = new Map(principals.map((p) => [keyOf(p), p]));
  const pairs = [...unique].map(([key, p]) => sql`${key}::text, principal_stamp(${p.uid}, ${p.role})`);
  return sql`json_build_object(${sql.join(pairs)}) as ${sql.id(STAMPS)}`;
}

/** The principal's stamp as a row with stampColumns reports it; null when there is no such row. */
export function stampIn(report: object | undefined, principal: Principal): PrincipalStamp | null {
  if (!report || !(STAMPS in report)) return null;
  const value = (report as Record<string, unknown>)[STAMPS];
  const stamps = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, Array<number | null>> | null;
  const stamp = stamps?.[keyOf(principal)];
  if (!stamp) return null;
  return { user: stamp[0] ?? null, role: stamp[1] ?? null, settings: stamp[2] ?? null, siteRoles: stamp[3] ?? null };
}

/** One request's check, as its route uses it. */
export interface PrincipalCheck {
  /** The principal as the request started with it (from the cache when tentative). */
  readonly principal: Principal;
  /** Columns for the route's statement; undefined when there is nothing to check. */
  readonly columns: RawBuilder<unknown> | undefined;
  /**
   * Checks the stamp in `row` (a row of the statement that carried `columns`; none: resolve
   * afresh), on `db` when inside a transaction. Throws the refusal; returns the principal the
   * request runs as.
   */
  confirm(row?: object, db?: Kysely<any>): Promise<Principal>;
}

/** One principal's column, built once per user and role: every hot read asks for it. */
const singleColumns = new Map<string, RawBuilder<unknown>>();
const MAX_SINGLE_COLUMNS = 10_000;

function stampColumnOf(principal: Principal): RawBuilder<unknown> {
  const key = keyOf(principal);
  let columns = singleColumns.get(key);
  if (!columns) {
    if (singleColumns.size >= MAX_SINGLE_COLUMNS) singleColumns.clear();
    columns = stampColumns([principal]);
    singleColumns.set(key, columns);
  }
  return columns;
}

export function principalCheck(request: FastifyRequest): PrincipalCheck {
  const principal = request.principal!;
  return {
    principal,
    columns: principal.tentative ? stampColumnOf(principal) : undefined,
    confirm: (row, db) => confirmPrincipal(request, stampIn(row, principal), db),
  };
}

/**
 * Settles the cached principals of a batch's requests with its lock statement: their stamps
 * ride along, and each command is decided as the principal it was confirmed as (or refused).
 */
const principalStampHook: BatchHook<PrincipalCheck> = {
  name: 'principal_stamps',
  column: (checks) => {
    const cached = checks.map((c) => c.principal).filter((p) => p.tentative);
    return cached.length ? stampColumns(cached) : undefined;
  },
  before: async (check, row, trx, metadata) => ({ ...metadata, actor: actorOf(await check.confirm(row, trx)) }),
};

/** The request's principal check, as a hook of its command's batch. */
export const principalStampOf = (request: FastifyRequest): HookUse =>
  withHook(principalStampHook, principalCheck(request));
