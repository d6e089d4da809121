// The open low-stock alerts as one SQL relation, for every screen that lists or counts them
// (Alerts, the wall display, the dashboard): an item watched per site (shared/site-low-stock.ts)
// has an alert per site where it is low (site_low_episodes), with its units and threshold
// there; any other item has its own alert (low_stock_episodes), about the one site it is kept
// at. Whether an item is watched is read as the decisions define it: levels at more than one
// site, or a threshold of its own at some site.
import { sql, type RawBuilder } from 'kysely';

/**
 * Columns: item_id, site_id (the site of an alert per site; null for the item's own),
 * about_site_id (the site the alert is about; null for an item kept nowhere), episode (the
 * position that opened it), started_at, quantity and threshold (at the site, or the item's).
 */
export const openAlerts: RawBuilder<unknown> = sql`select e.item_id, null::uuid as site_id, w.site_id as about_site_id,
      e.started_position as episode, e.started_at, i.quantity, i.threshold
    from low_stock_episodes e
    join items i on i.id = e.item_id
    cross join lateral (select min(l.site_id::text)::uuid as site_id, count(distinct l.site_id) as sites
      from stock_levels l where l.item_id = e.item_id) w
    where e.ended_at is null and w.sites <= 1 and i.site_thresholds = '{}'::jsonb
  union all
  select e.item_id, e.site_id, e.site_id, e.started_position, e.started_at,
      (select coalesce(sum(l.quantity), 0)::int from stock_levels l where l.item_id = e.item_id and l.site_id = e.site_id),
      coalesce((i.site_thresholds ->> e.site_id::text)::int, i.threshold)
    from site_low_episodes e
    join items i on i.id = e.item_id
    where e.ended_at is null`;

/** Whether sites are named: in a store of more than one active site. */
export const severalSites = sql<boolean>`(select count(*) > 1 from sites where archived_at is null)`;

/** `about_site_id` of alias `a` limited to the sites a reader may see ('all': no limit). */
export function visibleTo(alias: string, sites: 'all' | readonly string[]): RawBuilder<unknown> {
  if (sites === 'all') return sql`true`;
  if (sites.length === 0) return sql`false`;
  return sql`${sql.ref(`${alias}.about_site_id`)} in (${sql.join(sites.map((id) => sql`${id}::uuid`))})`;
}
