// What the wall display shows, in one read: store name and money format, the open low-stock
// alerts (out of stock first, then newest), stock by category from its roll-up, and the
// latest activity. A display of one place (a site, or a location with those inside it) shows
// the alerts about it, stock by category there with the units there, and the latest activity
// there (display-place.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CategoryStock, DisplayAlert, DisplaySnapshot } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { readSettings } from '../accounts/settings/settings-queries.js';
import { latestActivity } from './activity-rows.js';
import type { Clock } from './dashboard-queries.js';
import { openAlerts, severalSites, visibleTo } from '../alerts/open-alerts-sql.js';
import { NotFoundError } from '../errors.js';
import { levelsAt, placeIdsAt, resolvePlace, type PlaceQuery, type ResolvedPlace } from './display-place.js';

/**
 * The wall pages through its alerts (client/features/display), so it gets all of them up to
 * this cap (as client/features/display/display-limits.ts); the count says how many more.
 */
export const DISPLAY_ALERTS = 200;
export const DISPLAY_ACTIVITY = 12;
export const DISPLAY_CATEGORIES = 24;

export class DisplayQueries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock = () => new Date(),
  ) {}

  /** The display of the whole store, or of one place (its alerts and stock by category are those there). */
  async snapshot(query: PlaceQuery = {}, sites: 'all' | readonly string[] = 'all'): Promise<DisplaySnapshot> {
    const now = this.clock();
    const place = await resolvePlace(this.db, query);
    // A place at a site the reader may not see is none to them.
    if (place && sites !== 'all' && !sites.includes(place.siteId))
      throw new NotFoundError(place.kind === 'site' ? 'Site not found' : 'Location not found');
    const [settings, alerts, alertCount, categories, recentActivity] = await Promise.all([
      readSettings(this.db),
      this.alerts(place, sites),
      this.alertCount(place, sites),
      place ? this.categoriesAt(place) : this.categories(),
      latestActivity(this.db, DISPLAY_ACTIVITY, undefined, place ? placeIdsAt(place) : undefined),
    ]);
    const money = { currency: settings.currency, locale: settings.locale };
    return {
      generatedAt: now.toISOString(),
      storeName: settings.storeName,
      alerts,
      alertCount,
      categories,
      recentActivity,
      money,
      place: place && { kind: place.kind, id: place.id, name: place.name, siteName: place.siteName },
    };
  }

  /**
   * The open alerts (open-alerts-sql.ts) a display shows: about the place's site and, for a
   * location, of items kept there, with the units there (`here`).
   */
  private alertsAt(place: ResolvedPlace | null, sites: 'all' | readonly string[] = 'all'): RawBuilder<unknown> {
    if (!place) return sql`select a.*, a.quantity as here from (${openAlerts}) a where ${visibleTo('a', sites)}`;
    const here = sql`(select coalesce(sum(l.quantity), 0)::int from stock_levels l where l.item_id = a.item_id and ${levelsAt(place)})`;
    const kept =
      place.kind === 'location'
        ? sql`and exists (select 1 from stock_levels l where l.item_id = a.item_id and ${levelsAt(place)})`
        : sql``;
    return sql`select a.*, ${place.kind === 'location' ? here : sql`a.quantity`} as here from (${openAlerts}) a
      where a.about_site_id = ${place.siteId}::uuid ${kept}`;
  }

  private async alerts(place: ResolvedPlace | null, sites: 'all' | readonly string[]): Promise<DisplayAlert[]> {
    const rows = await sql<{
      item_id: string;
      site_id: string | null;
      name: string;
      category_name: string;
      here: number;
      threshold: number;
      started_at: Date;
      site_name: string | null;
    }>`select a.item_id::text as item_id, a.site_id::text as site_id, i.name, i.category_name, a.here, a.threshold,
        a.started_at, case when ${place === null} and ${severalSites} then s.name end as site_name
      from (${this.alertsAt(place, sites)}) a
      join items i on i.id = a.item_id
      left join sites s on s.id = a.about_site_id
      order by (a.here = 0) desc, a.started_at desc, a.episode desc
      limit ${DISPLAY_ALERTS}`.execute(this.db);
    return rows.rows.map((r) => ({
      itemId: r.item_id,
      name: r.name,
      category: r.category_name,
      quantity: Number(r.here),
      threshold: Number(r.threshold),
      since: new Date(r.started_at).toISOString(),
      siteId: r.site_id,
      siteName: r.site_name,
    }));
  }

  private async alertCount(place: ResolvedPlace | null, sites: 'all' | readonly string[]): Promise<number> {
    const rows = await sql<{ n: string }>`select count(*) as n from (${this.alertsAt(place, sites)}) a`.execute(
      this.db,
    );
    return Number(rows.rows[0]!.n);
  }

  /** Stock by category at a place, from its stock levels (the roll-up is the whole store's); low: its alerts there. */
  private async categoriesAt(place: ResolvedPlace): Promise<CategoryStock[]> {
    const rows = await sql<{
      id: string;
      name: string;
      item_count: string;
      units: string;
      value: string;
      low_count: string;
    }>`with low as materialized (select distinct a.item_id from (${this.alertsAt(place)}) a)
      select c.id::text as id, c.name, count(*) as item_count, sum(h.units) as units, sum(h.units * i.price) as value,
        count(*) filter (where i.id in (select item_id from low)) as low_count
      from (select l.item_id, sum(l.quantity) as units from stock_levels l where ${levelsAt(place)} group by l.item_id) h
      join items i on i.id = h.item_id
      join categories c on c.id = i.category_id
      group by c.id, c.name
      order by sum(h.units * i.price) desc, c.name limit ${DISPLAY_CATEGORIES}`.execute(this.db);
    return rows.rows.map((r) => ({
      categoryId: r.id,
      name: r.name,
      itemCount: Number(r.item_count),
      units: Number(r.units),
      value: Math.round(Number(r.value) * 100) / 100,
      lowCount: Number(r.low_count),
    }));
  }

  /**
   * Categories by stock value, largest first. With several sites, an item counts as low in its
   * category when it has an open alert at any site (the roll-up counts items low in total).
   */
  private async categories(): Promise<CategoryStock[]> {
    const rows = await sql<{
      id: string;
      name: string;
      item_count: number;
      units: string;
      value: string;
      low_count: number;
    }>`with low as materialized (select i.category_id, count(distinct a.item_id) as n
        from (${openAlerts}) a join items i on i.id = a.item_id group by i.category_id)
      select c.id::text as id, c.name, s.item_count, s.units, s.value,
        case when ${severalSites} then coalesce(l.n, 0) else s.low_count end as low_count
      from category_stock s join categories c on c.id = s.category_id
      left join low l on l.category_id = s.category_id
      order by s.value desc, c.name limit ${DISPLAY_CATEGORIES}`.execute(this.db);
    return rows.rows.map((r) => ({
      categoryId: r.id,
      name: r.name,
      itemCount: Number(r.item_count),
      units: Number(r.units),
      value: Math.round(Number(r.value) * 100) / 100,
      lowCount: Number(r.low_count),
    }));
  }
}
