// Location commands, in the shape every command shares (eventstore/handle-command.ts): load
// (the site's row locked first for anything that changes the tree, see place-locks.ts, then
// the location's), read the facts the decision needs (tree-facts.ts), decide (decide.ts,
// pure), append at the version loaded. The answer is the location as the command left it.
import { randomUUID } from 'node:crypto';
import { locationStream, type Location } from '../../shared/sites.js';
import type { EventStore } from '../eventstore/event-store.js';
import { handleCommand } from '../eventstore/handle-command.js';
import type { EventMetadata } from '../eventstore/types.js';
import {
  archiveLocation,
  createLocation,
  moveLocation,
  restoreLocation,
  updateLocation,
  type CreateLocation,
  type UpdateLocation,
} from './decide.js';
import {
  lockLocation,
  lockSite,
  lockTreeOf,
  mapPlaceConstraintErrors,
  readLocation,
  requireFreeBarcode,
  requireFreeLocationCode,
  requireLocationVersion,
} from './place-locks.js';
import type { PlaceQueries } from './place-queries.js';
import { toLocationState, toSiteState, type LocationRow } from './place-rows.js';
import { activeChildren, ancestorsOf, stockInSubtree } from './tree-facts.js';

const stateOf = (row: LocationRow | null) => row && toLocationState(row);

export class LocationService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: PlaceQueries,
  ) {}

  async create(command: Omit<CreateLocation, 'locationId'>, meta: EventMetadata): Promise<Location> {
    const locationId = randomUUID();
    const created = await handleCommand(
      this.store,
      {
        stream: locationStream(locationId),
        load: async (trx) => ({
          site: await lockSite(trx, command.siteId),
          parent: await readLocation(trx, command.parentId),
        }),
        check: async (trx, { site }) => {
          if (!site) return; // the decision says so
          await requireFreeLocationCode(trx, site.id, command.code, null);
          await requireFreeBarcode(trx, command.barcode, null);
        },
        decide: ({ site, parent }) =>
          createLocation({ ...command, locationId }, site && toSiteState(site), stateOf(parent)),
        version: () => 0,
      },
      meta,
    ).catch(mapPlaceConstraintErrors);
    return this.queries.location(created!.streamId.slice('location-'.length));
  }

  async update(
    id: string,
    command: UpdateLocation,
    expectedVersion: number | undefined,
    meta: EventMetadata,
  ): Promise<Location> {
    await handleCommand(
      this.store,
      {
        stream: locationStream(id),
        load: (trx) => lockLocation(trx, id),
        check: async (trx, row) => {
          requireLocationVersion(row, expectedVersion);
          if (command.code !== undefined) await requireFreeLocationCode(trx, row!.site_id, command.code, id);
          await requireFreeBarcode(trx, command.barcode, id);
        },
        decide: (row) => updateLocation(command, stateOf(row)),
        version: (row) => Number(row!.version),
      },
      meta,
    ).catch(mapPlaceConstraintErrors);
    return this.queries.location(id);
  }

  async move(
    id: string,
    toParentId: string | null,
    expectedVersion: number | undefined,
    meta: EventMetadata,
  ): Promise<Location> {
    await handleCommand(
      this.store,
      {
        stream: locationStream(id),
        load: async (trx) => {
          const { site, location } = await lockTreeOf(trx, id);
          const parent = location ? await readLocation(trx, toParentId) : null;
          return { site, location, parent, ancestors: parent ? await ancestorsOf(trx, parent.id) : [] };
        },
        check: async (_trx, { location }) => requireLocationVersion(location, expectedVersion),
        decide: ({ site, location, parent, ancestors }) =>
          moveLocation(toParentId, stateOf(location), site && toSiteState(site), stateOf(parent), ancestors),
        version: ({ location }) => Number(location!.version),
      },
      meta,
    );
    return this.queries.location(id);
  }

  async archive(id: string, meta: EventMetadata): Promise<Location> {
    await handleCommand(
      this.store,
      {
        stream: locationStream(id),
        load: async (trx) => {
          const { site, location } = await lockTreeOf(trx, id);
          if (!site || !location) return { location: null, facts: null };
          return {
            location,
            facts: {
              site: toSiteState(site),
              stock: await stockInSubtree(trx, id),
              activeChildren: await activeChildren(trx, id),
            },
          };
        },
        decide: ({ location, facts }) => archiveLocation(stateOf(location), facts),
        version: ({ location }) => Number(location!.version),
      },
      meta,
    );
    return this.queries.location(id);
  }

  async restore(id: string, meta: EventMetadata): Promise<Location> {
    await handleCommand(
      this.store,
      {
        stream: locationStream(id),
        load: async (trx) => {
          const { site, location } = await lockTreeOf(trx, id);
          return { site, location, parent: await readLocation(trx, location?.parent_id) };
        },
        decide: ({ site, location, parent }) =>
          restoreLocation(stateOf(location), site && toSiteState(site), stateOf(parent)),
        version: ({ location }) => Number(location!.version),
      },
      meta,
    );
    return this.queries.location(id);
  }
}
