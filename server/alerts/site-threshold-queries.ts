// An item's stock and thresholds per site, for its thresholds section: every active site the
// reader may see (and an archived one that still has a threshold of the item's, so it can be
// cleared), with the units there, its own threshold and the one that applies.
import { sql, type Kysely } from 'kysely';
import type { ItemSiteThresholds } from '../../shared/site-low-stock.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';

interface Row {
  item_threshold: number;
  own_count: number;
  kept_sites: number;
  site_id: string | null;
  site_name: string;
  site_code: string;
  quantity: string | number;
  kept: boolean;
  own: number | null;
}

export class SiteThresholdQueries {
  constructor(private readonly db: Kysely<DB>) {}

  async forItem(itemId: string, sites: 'all' | readonly string[] = 'all'): Promise<ItemSiteThresholds> {
    const visible =
      sites === 'all'
        ? sql`true`
        : sites.length === 0
          ? sql`false`
          : sql`s.id in (${sql.join(sites.map((id) => sql`${id}::uuid`))})`;
    const rows = await sql<Row>`select i.threshold as item_threshold,
        (select count(*) from jsonb_object_keys(i.site_thresholds))::int as own_count,
        (select count(distinct l.site_id) from stock_levels l where l.item_id = i.id)::int as kept_sites,
        s.id::text as site_id, s.name as site_name, s.code as site_code,
        coalesce((select sum(l.quantity) from stock_levels l where l.item_id = i.id and l.site_id = s.id), 0) as quantity,
        exists (select 1 from stock_levels l where l.item_id = i.id and l.site_id = s.id) as kept,
        (i.site_thresholds ->> s.id::text)::int as own
      from items i
      left join sites s on (s.archived_at is null or i.site_thresholds ? s.id::text) and ${visible}
      where i.id = ${itemId}
      order by lower(s.name), s.id`.execute(this.db);
    const first = rows.rows[0];
    if (!first) throw new NotFoundError('Item not found');
    const itemThreshold = Number(first.item_threshold);
    return {
      itemId,
      itemThreshold,
      watchedPerSite: Number(first.kept_sites) > 1 || Number(first.own_count) > 0,
      sites: rows.rows
        .filter((r) => r.site_id !== null)
        .map((r) => {
          const quantity = Number(r.quantity);
          const threshold = r.own === null ? itemThreshold : Number(r.own);
          return {
            siteId: r.site_id!,
            siteName: r.site_name,
            siteCode: r.site_code,
            quantity,
            kept: r.kept,
            ownThreshold: r.own === null ? null : Number(r.own),
            threshold,
            low: (r.kept || r.own !== null) && quantity <= threshold,
          };
        }),
    };
  }
}
