// What someone whose role holds at some sites only sees of stock (roles per site, issue 25).
// One place decides it for every JSON answer, as guest-view.ts does for people's names:
//   - an item (alone, in a list, in a category's page, in a conflict's `current`) shows the
//     units at the sites they may see as its `quantity`, not the store's total, which counts
//     stock at sites they may not see;
//   - "where is it" (ItemLocations) lists only those sites' locations, its total their sum,
//     and nothing in transit (a transfer's units belong to no site until received).
// Those who work at every site pay nothing: the hook returns at once. The live feed does the
// same with its own frames (server/realtime/site-quantities.ts).
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { Item, ItemLocations } from '../../shared/inventory.js';
import { ForbiddenError } from '../errors.js';
import { visibleSites } from './site-access.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isItem(value: unknown): value is Item {
  const v = value as Partial<Item> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.id === 'string' &&
    typeof v.sku === 'string' &&
    typeof v.quantity === 'number' &&
    typeof v.version === 'number'
  );
}

function isItemLocations(value: unknown): value is ItemLocations {
  const v = value as Partial<ItemLocations> | null;
  return !!v && typeof v === 'object' && typeof v.itemId === 'string' && Array.isArray(v.locations);
}

/** The items an answer carries, wherever the API's shapes put them. */
function itemsIn(payload: unknown): Item[] {
  if (Array.isArray(payload)) return payload.filter(isItem);
  if (isItem(payload)) return [payload];
  if (payload && typeof payload === 'object') {
    const { items, current } = payload as { items?: unknown; current?: unknown };
    if (Array.isArray(items)) return items.filter(isItem);
    if (isItem(current)) return [current];
  }
  return [];
}

/** Each item's units at these sites (0 where it has none), in one statement. */
export async function unitsAtSites(
  db: Kysely<any>,
  itemIds: readonly string[],
  sites: readonly string[],
): Promise<Map<string, number>> {
  const ids = [...new Set(itemIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const units = new Map<string, number>();
  if (ids.length === 0 || sites.length === 0) return units;
  const rows = await sql<{ item_id: string; units: number }>`select item_id::text as item_id,
      sum(quantity)::int as units from stock_levels
    where item_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
      and site_id in (${sql.join(sites.map((id) => sql`${id}::uuid`))})
    group by item_id`.execute(db);
  for (const row of rows.rows) units.set(row.item_id.toLowerCase(), Number(row.units));
  return units;
}

/** The answer as someone who sees only `sites` gets it (changed in place: it is this request's own). */
export async function limitToSites(db: Kysely<any>, payload: unknown, sites: readonly string[]): Promise<unknown> {
  if (isItemLocations(payload)) {
    payload.locations = payload.locations.filter((l) => sites.includes(l.siteId.toLowerCase()));
    payload.total = payload.locations.reduce((sum, l) => sum + l.quantity, 0);
    payload.inTransit = 0;
    return payload;
  }
  const items = itemsIn(payload);
  if (items.length === 0) return payload;
  const units = await unitsAtSites(
    db,
    items.map((i) => i.id),
    sites,
  );
  for (const item of items) item.quantity = units.get(item.id.toLowerCase()) ?? 0;
  return payload;
}

/** Routes whose answer is the store's totals, and what the refusal calls them. */
const STORE_TOTALS: Record<string, string> = {
  '/api/dashboard': "The dashboard's figures are the whole store's: your role holds at some sites only",
  '/api/inventory/low-stock':
    "The low-stock list is by the store's totals: your role holds at some sites only (see Alerts)",
};

/** Registered after the auth plugin, so the principal is known when it runs. */
export const siteView = fp<{ db: Kysely<any> }>(async (app, { db }) => {
  // Stock "as of" a moment, the changes between two, the dashboard's figures and the
  // low-stock list are read as the store's totals over every site: not for those limited
  // to some (until they are read per site). Their sites' low stock is on Alerts.
  app.addHook('preHandler', async (request) => {
    if (!request.principal?.siteGrants) return;
    const asOf = (request.query as { asOf?: unknown } | undefined)?.asOf;
    const route = request.routeOptions.url ?? '';
    if (asOf !== undefined || route === '/api/changes' || route === '/api/changes/export.csv')
      throw new ForbiddenError('Stock as of a moment is for those whose role holds at every site');
    const totals = STORE_TOTALS[route];
    if (totals) throw new ForbiddenError(totals);
  });
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const principal = request.principal;
    if (!principal?.siteGrants) return payload;
    const sites = visibleSites(principal);
    return sites === 'all' ? payload : limitToSites(db, payload, sites);
  });
});
