// What the location decisions need to know of the tree and the stock in it, read inside the
// command's transaction (after its locks): the stock held at a place or anywhere below it,
// the ancestors of a location (a move must not go into its own subtree), its active children.
import { sql, type RawBuilder } from 'kysely';
import type { Transaction } from '../eventstore/types.js';
import type { StockHeld } from './decide.js';

/** The named locations that hold stock, besides the place itself, in the refusal's message. */
const NAMED_HOLDERS = 3;

/** Every location of the subtree rooted at `locationId`, itself included. */
const subtree = (locationId: string): RawBuilder<unknown> => sql`with recursive tree (id) as (
    select id from locations where id = ${locationId}
    union all select l.id from locations l join tree t on l.parent_id = t.id
  )`;

/** Which stock_levels rows count, for a row alias. */
type Scope = (alias: string) => RawBuilder<unknown>;

async function held(trx: Transaction, scope: Scope, tree: RawBuilder<unknown>, self: string | null) {
  const rows = await sql<{ units: number | null; items: number; holders: string[] | null }>`${tree}
    select sum(s.quantity)::int as units, count(distinct s.item_id)::int as items,
      (select array_agg(h.name order by lower(h.name)) from (
          select distinct l.name from stock_levels s2 join locations l on l.id = s2.location_id
          where s2.quantity > 0 and ${scope('s2')} and l.id is distinct from ${self}::uuid
          order by l.name limit ${NAMED_HOLDERS}) h) as holders
    from stock_levels s where s.quantity > 0 and ${scope('s')}`.execute(trx);
  const row = rows.rows[0];
  return { units: Number(row?.units ?? 0), items: Number(row?.items ?? 0), below: row?.holders ?? [] };
}

/** Stock at the location or anywhere below it; `below` names where, when that is not the location itself. */
export async function stockInSubtree(trx: Transaction, locationId: string): Promise<StockHeld> {
  return held(
    trx,
    (a) => sql`${sql.ref(`${a}.location_id`)} in (select id from tree)`,
    subtree(locationId),
    locationId,
  );
}

/** Stock anywhere at the site, naming the locations that hold it. */
export async function stockAtSite(trx: Transaction, siteId: string): Promise<StockHeld> {
  return held(trx, (a) => sql`${sql.ref(`${a}.site_id`)} = ${siteId}`, sql``, null);
}

/** The ids from the location up to its site's top level, the location's own first (none: it does not exist). */
export async function ancestorsOf(trx: Transaction, locationId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`with recursive up (id, parent_id, depth) as (
      select id, parent_id, 0 from locations where id = ${locationId}
      union all select l.id, l.parent_id, u.depth + 1 from locations l join up u on l.id = u.parent_id
        where u.depth < 10000
    ) select id::text as id from up order by depth`.execute(trx);
  return rows.rows.map((r) => r.id);
}

/** Names of the location's children that are not archived. */
export async function activeChildren(trx: Transaction, locationId: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from locations
    where parent_id = ${locationId} and archived_at is null order by lower(name)`.execute(trx);
  return rows.rows.map((r) => r.name);
}
