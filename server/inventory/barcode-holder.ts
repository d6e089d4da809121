// Who holds a barcode: an item or a location's shelf label. A scan must have one answer, so a
// code is on one item or one location in the whole store. Each table's unique index catches
// a race within it; across the two tables nothing would, so a writer that sets a barcode
// takes this code's lock first (one transaction-scoped advisory lock per code), and an item
// and a location given the same code at the same moment go one after the other: the second
// sees the first.
import { sql } from 'kysely';
import type { Transaction } from '../eventstore/types.js';

export interface BarcodeHolder {
  what: 'item' | 'location';
  name: string;
}

/**
 * The item or location (other than those excepted) that has this barcode, after taking the
 * code's lock for the rest of the transaction; null when it is free.
 */
export async function lockedBarcodeHolder(
  trx: Transaction,
  code: string,
  except: { itemId?: string | null; locationId?: string | null },
): Promise<BarcodeHolder | null> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`barcode:${code}`}, 0))`.execute(trx);
  const rows = await sql<BarcodeHolder>`
    select 'item' as what, name from items where barcode = ${code} and id is distinct from ${except.itemId ?? null}::uuid
    union all select 'location', name from locations
      where barcode = ${code} and id is distinct from ${except.locationId ?? null}::uuid
    limit 1`.execute(trx);
  return rows.rows[0] ?? null;
}
