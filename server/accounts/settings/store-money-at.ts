// The store's money format (currency and locale) as it was at any place in the log: what a
// change's sentence writes its prices in, so a price set while the store counted in dollars
// still reads "$4.50" after it moved to euros. Read from the settings stream's own changes,
// one statement for a page of events (a store changes its currency once or twice in its life).
import { sql, type Kysely } from 'kysely';
import { DEFAULT_MONEY, type MoneyFormat } from '../../../shared/money-format.js';

/** A place in the log: the event's transaction (when known) and position, as readers order them. */
export interface LogPlace {
  txId?: string | null;
  position: number;
}

export type MoneyAt = (place: LogPlace) => MoneyFormat;

interface Change {
  txId: string;
  position: number;
  currency: string | null;
  locale: string | null;
}

/** Is `change` at or before `place`? By (transaction, position) as the feed orders, or by position alone. */
function notAfter(change: Change, place: LogPlace): boolean {
  if (place.txId === undefined || place.txId === null) return change.position <= place.position;
  const a = BigInt(change.txId);
  const b = BigInt(place.txId);
  return a < b || (a === b && change.position <= place.position);
}

/**
 * The money format at each of the given places. Reads the store's currency and locale changes
 * once (none when `places` is empty); before the first, the defaults every store started with.
 */
export async function storeMoneyAt(db: Kysely<any>, places: LogPlace[]): Promise<MoneyAt> {
  if (places.length === 0) return () => DEFAULT_MONEY;
  const rows = await sql<{
    tx_id: string;
    position: string;
    currency: string | null;
    locale: string | null;
  }>`select tx_id::text as tx_id,
      position::text as position, data -> 'changes' ->> 'currency' as currency, data -> 'changes' ->> 'locale' as locale
    from events
    where stream_id = 'settings' and type = 'SettingsChanged' and (data -> 'changes') ?| array['currency', 'locale']
    order by stream_version`.execute(db);
  const changes: Change[] = rows.rows.map((r) => ({
    txId: r.tx_id,
    position: Number(r.position),
    currency: r.currency,
    locale: r.locale,
  }));
  if (changes.length === 0) return () => DEFAULT_MONEY;
  return (place) => {
    let money = DEFAULT_MONEY;
    for (const change of changes) {
      if (!notAfter(change, place)) break;
      money = { currency: change.currency ?? money.currency, locale: change.locale ?? money.locale };
    }
    return money;
  };
}
