// What the item routes need to answer ?asOf=: the store as it was at a moment. Served by
// server/history (AsOfQueries), which reads across features; declared here so the routes
// depend on what they use, and history depends on inventory, never the other way round.
import type { Item } from '../../shared/inventory.js';

export interface ItemsAsOf {
  /** A requested moment, checked: a date-time within the store's history (else a ValidationError). */
  moment(raw: string): Promise<Date>;
  /**
   * Items at `t`, newest first, keyset-paged like the live list; with a site or location,
   * the items placed there then, each with its units there then (`quantityHere`).
   */
  items(
    t: Date,
    limit: number,
    cursor?: string,
    place?: { siteId?: string; locationId?: string },
  ): Promise<{ items: Item[]; nextCursor: string | null }>;
  /** Items at or below their threshold at `t`. */
  lowStock(t: Date): Promise<Item[]>;
}
