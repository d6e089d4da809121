// Site commands, each in the shape every command shares (eventstore/handle-command.ts): load
// what the decision depends on (the site's row, locked), decide (decide.ts, pure), append at
// the version loaded. The answer is the site as the command left it.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { siteStream, type Site } from '../../shared/sites.js';
import type { EventStore } from '../eventstore/event-store.js';
import { handleCommand } from '../eventstore/handle-command.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import {
  archiveSite,
  createSite,
  NO_STOCK,
  restoreSite,
  updateSite,
  type CreateSite,
  type UpdateSite,
} from './decide.js';
import {
  lockSite,
  mapPlaceConstraintErrors,
  readLocation,
  requireFreeSiteCode,
  requireSiteVersion,
} from './place-locks.js';
import type { PlaceQueries } from './place-queries.js';
import { siteColumns, toLocationState, toSiteState, type SiteRow } from './place-rows.js';
import { stockAtSite } from './tree-facts.js';

/** Every site's row, locked in id order: an archive counts the active ones, and two archives must not both count the other. */
async function lockAllSites(trx: Transaction): Promise<SiteRow[]> {
  return (await sql<SiteRow>`select ${sql.raw(siteColumns)} from sites order by id for update`.execute(trx)).rows;
}

export class SiteService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: PlaceQueries,
  ) {}

  async create(command: Omit<CreateSite, 'siteId'>, meta: EventMetadata): Promise<Site> {
    const siteId = randomUUID();
    const created = await handleCommand(
      this.store,
      {
        stream: siteStream(siteId),
        load: async () => null,
        check: (trx) => requireFreeSiteCode(trx, command.code, null),
        decide: () => createSite({ ...command, siteId }),
        version: () => 0,
      },
      meta,
    ).catch(mapPlaceConstraintErrors);
    // A retry of a create (its Idempotency-Key) answers the site the first one made.
    return this.queries.site(created!.streamId.slice('site-'.length));
  }

  async update(id: string, command: UpdateSite, expectedVersion: number | undefined, meta: EventMetadata) {
    await handleCommand(
      this.store,
      {
        stream: siteStream(id),
        load: async (trx) => ({
          site: await lockSite(trx, id),
          newDefault: await readLocation(trx, command.defaultLocationId),
        }),
        check: async (trx, { site }) => {
          requireSiteVersion(site, expectedVersion);
          if (command.code !== undefined) await requireFreeSiteCode(trx, command.code, id);
        },
        decide: ({ site, newDefault }) =>
          updateSite(command, site && toSiteState(site), newDefault && toLocationState(newDefault)),
        version: ({ site }) => Number(site!.version),
      },
      meta,
    ).catch(mapPlaceConstraintErrors);
    return this.queries.site(id);
  }

  async archive(id: string, meta: EventMetadata): Promise<Site> {
    await handleCommand(
      this.store,
      {
        stream: siteStream(id),
        load: async (trx) => {
          const sites = await lockAllSites(trx);
          const site = sites.find((s) => s.id === id) ?? null;
          return {
            site,
            stock: site ? await stockAtSite(trx, id) : null,
            active: sites.filter((s) => s.archived_at === null).length,
          };
        },
        decide: ({ site, stock, active }) => archiveSite(site && toSiteState(site), stock ?? NO_STOCK, active),
        version: ({ site }) => Number(site!.version),
      },
      meta,
    );
    return this.queries.site(id);
  }

  async restore(id: string, meta: EventMetadata): Promise<Site> {
    await handleCommand(
      this.store,
      {
        stream: siteStream(id),
        load: (trx) => lockSite(trx, id),
        decide: (site) => restoreSite(site && toSiteState(site)),
        version: (site) => Number(site!.version),
      },
      meta,
    );
    return this.queries.site(id);
  }
}
