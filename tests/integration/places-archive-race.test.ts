// An archive and adjustments at the same place, at the same moment, many times over: either
// the archive wins (the adjustments are refused, nothing is there) or the stock does (the
// archive is refused while it is there), never both. An archived location, or any location of
// an archived site, never holds stock. Adjustments take a share lock on the location's row and
// its site's that the archive's lock waits for (server/inventory/places-sql.ts).
//
// PostgreSQL only: PGlite has one connection, so an archive and an adjustment never overlap
// there and there is no race to lose. CI always sets TEST_DATABASE_URL, so this runs there.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { reportMissingServer, serverBackends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Rounds per case: enough that, without the lock, both sides win in one round within a few of them. */
const ROUNDS = 24;
/** Adjustments racing each archive, each on its own item. */
const RACERS = 4;
/** Lags (ms) of the adjustments behind the archive, one per round in turn. */
const LAGS = 12;

reportMissingServer('archive racing adjustments');

describe.each(serverBackends())('archive racing adjustments on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  const items: string[] = [];
  let n = 0;

  const call = (method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: manager.idToken, body });
  const created = async (path: string, body: unknown): Promise<{ id: string }> => {
    const r = await call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  /** Units at the place, as the stock_levels table (what "where is it" and the lists read) holds them. */
  const unitsAt = async (column: 'location_id' | 'site_id', id: string) =>
    Number(
      (
        await sql<{ units: number }>`select coalesce(sum(quantity), 0)::int as units from stock_levels
          where ${sql.ref(column)} = ${id}::uuid`.execute(server.store.database.db)
      ).rows[0]!.units,
    );

  /**
   * The archive, then after `lag` ms RACERS adjustments of +1 at `locationId`, each on its own
   * item; whether the archive was made and how many adjustments were. The lag varies by round
   * so that the adjustments land on every step of the archive's transaction.
   */
  const race = async (archivePath: string, locationId: string, lag: number) => {
    const [archive, ...adjusts] = await Promise.all([
      call('POST', archivePath),
      ...items.map(async (id) => {
        await new Promise((resolve) => setTimeout(resolve, lag));
        return (await call('POST', `/api/inventory/${id}/adjust`, { delta: 1, reason: 'restock', locationId })).status;
      }),
    ]);
    expect([200, 409], JSON.stringify(archive!.body)).toContain(archive!.status);
    for (const status of adjusts) expect([200, 409]).toContain(status);
    return { archived: archive!.status === 200, adjusted: adjusts.filter((s) => s === 200).length };
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Rae Manager');
    const category = await created('/api/categories', { name: 'Racing' });
    for (let i = 0; i < RACERS; i++)
      items.push(
        (
          await created('/api/inventory', {
            name: `Racer ${i}`,
            sku: `RACE-${i}`,
            category_id: category.id,
            quantity: 0,
            price: 1,
            threshold: 0,
          })
        ).id,
      );
  });
  afterAll(() => server.close());

  it('never leaves stock at a location archived while adjustments put stock there', async () => {
    const outcomes = { archived: 0, kept: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const location = await created('/api/locations', { site_id: MAIN_SITE_ID, name: `Bin ${++n}`, code: `R${n}` });
      const { archived, adjusted } = await race(`/api/locations/${location.id}/archive`, location.id, round % LAGS);
      const units = await unitsAt('location_id', location.id);
      // What a user notices: an archived bin with stock in it, or units the answers did not promise.
      expect({ round, archived, units }).toEqual({ round, archived, units: archived ? 0 : adjusted });
      if (archived) expect(adjusted).toBe(0);
      outcomes[archived ? 'archived' : 'kept']++;
    }
    expect(outcomes.archived + outcomes.kept).toBe(ROUNDS);
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it('never leaves stock at a site archived while adjustments put stock at its location', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site = await created('/api/sites', { name: `Pop-up ${++n}`, code: `P${n}`, time_zone: 'UTC' });
      // The site's first location: its default, which a site's archive does not ask to be empty of anything else.
      const location = await created('/api/locations', { site_id: site.id, name: 'Counter', code: 'C' });
      const { archived, adjusted } = await race(`/api/sites/${site.id}/archive`, location.id, round % LAGS);
      const units = await unitsAt('site_id', site.id);
      expect({ round, archived, units }).toEqual({ round, archived, units: archived ? 0 : adjusted });
      if (archived) expect(adjusted).toBe(0);
    }
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
