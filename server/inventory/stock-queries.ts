// Where an item's stock is: its stock_levels rows with their locations (each with its path
// from the site's top level) and sites, and its total and what is in transit, from the items
// projection (one statement, which also checks a cached principal: see auth/principal-check.ts).
import { sql, type Kysely } from 'kysely';
import type { ItemLocations } from '../../shared/inventory.js';
import type { PrincipalCheck } from '../auth/principal-check.js';
import { NotFoundError } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface LevelRow {
  /** Null: there is no such item (the statement answers a row either way, for the principal's check). */
  total: number | null;
  in_transit: number;
  site_id: string | null;
  site_name: string | null;
  location_id: string | null;
  location_name: string | null;
  location_code: string | null;
  /** Names from the site's top level down to the location. */
  location_path: string[] | null;
  archived: boolean | null;
  quantity: number | null;
}

export class StockQueries {
  constructor(private readonly db: Kysely<any>) {}

  /**
   * Per site and location, the item's units there (0 where it was and is no more), with the
   * location's path of names from its site's top level, by site name and path (a shelf
   * before its bins).
   */
  async locationsOf(itemId: string, check?: PrincipalCheck): Promise<ItemLocations> {
    if (!UUID.test(itemId)) {
      await check?.confirm();
      throw new NotFoundError('Item not found');
    }
    const rows = await sql<LevelRow>`select i.quantity as total, i.in_transit, s.site_id::text as site_id,
        st.name as site_name, s.location_id::text as location_id, l.name as location_name, l.code as location_code,
        up.path as location_path, l.archived_at is not null as archived,
        s.quantity${check?.columns ? sql`, ${check.columns}` : sql``}
      from (select 1) one
      left join items i on i.id = ${itemId}::uuid
      left join stock_levels s on s.item_id = i.id
      left join locations l on l.id = s.location_id
      left join sites st on st.id = s.site_id
      left join lateral (with recursive up (parent_id, name, depth) as (
          select l.parent_id, l.name, 0
          union all
          select p.parent_id, p.name, u.depth + 1 from locations p join up u on p.id = u.parent_id where u.depth < 64
        ) select array_agg(name order by depth desc) as path from up) up on l.id is not null
      order by st.name, up.path, s.location_id`.execute(this.db);
    await check?.confirm(rows.rows[0]);
    const first = rows.rows[0];
    if (!first || first.total === null) throw new NotFoundError('Item not found');
    return {
      itemId: itemId.toLowerCase(),
      total: Number(first.total),
      inTransit: Number(first.in_transit),
      locations: rows.rows
        .filter((r) => r.location_id !== null)
        .map((r) => ({
          siteId: r.site_id!,
          siteName: r.site_name ?? '',
          locationId: r.location_id!,
          locationName: r.location_name ?? '',
          locationCode: r.location_code ?? '',
          locationPath: r.location_path ?? [r.location_name ?? ''],
          archived: Boolean(r.archived),
          quantity: Number(r.quantity),
        })),
    };
  }
}
