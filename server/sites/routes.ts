// /api/sites and /api/locations: thin — a schema, a guard, one call. Each route's guard is
// one of the two below, so who may read or manage places is decided in one place. Roles per
// site narrow both (auth/site-access.ts): someone whose role holds at some sites only reads
// the places of the sites they may see, changes them only where they manage settings, and
// adds no site (they would hold nothing there).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { assertMayAtSites, assertMaySeeSite, atEverySite, maySeeSite } from '../auth/site-access.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { commandMeta, expectedVersionOf } from '../http/command-meta.js';
import type { LocationService } from './location-service.js';
import type { PlaceQueries } from './place-queries.js';
import {
  createLocationBody,
  createSiteBody,
  emptyBody,
  errors,
  findLocationQuery,
  foundLocationSchema,
  locationIdParams,
  locationSchema,
  locationsQuery,
  moveLocationBody,
  siteIdParams,
  siteSchema,
  updateLocationBody,
  updateSiteBody,
} from './schemas.js';
import type { SiteService } from './site-service.js';

/** Reading sites and locations: whoever sees the stock (they say where it is). */
const mayView = requirePermission('inventory:view');
/** Creating, editing, moving, archiving and restoring them: whoever manages the store's settings. */
const mayManage = requirePermission('settings:manage');

type WithId = { Params: { id: string } };
const tags = ['places'];

interface SiteBody {
  name?: string;
  code?: string;
  address?: string;
  time_zone?: string;
  default_location_id?: string;
  expected_version?: number;
}
interface LocationBody {
  site_id?: string;
  parent_id?: string | null;
  name?: string;
  code?: string;
  barcode?: string | null;
  expected_version?: number;
}

export const placeRoutes: FastifyPluginAsync<{
  sites: SiteService;
  locations: LocationService;
  queries: PlaceQueries;
}> = async (app, { sites, locations, queries }) => {
  /** The principal when its role holds at some sites only; null (nothing to ask) for everyone else. */
  const limited = (request: FastifyRequest) => {
    const principal = principalOf(request);
    return atEverySite(principal) ? null : principal;
  };
  const siteName = async (siteId: string) => (await queries.site(siteId)).name;

  /** 403 unless the caller may see the site (a read of its places). */
  async function refuseUnseenSite(request: FastifyRequest, siteId: string): Promise<void> {
    const principal = limited(request);
    if (!principal || maySeeSite(principal, siteId)) return;
    const name = await siteName(siteId);
    assertMaySeeSite(principal, siteId, () => name);
  }

  /** 403 unless the caller manages settings at the site (a change of its places). */
  async function refuseUnmanagedSite(request: FastifyRequest, siteId: string): Promise<void> {
    const principal = limited(request);
    if (!principal) return;
    const name = await siteName(siteId);
    assertMayAtSites(principal, 'settings:manage', [siteId], () => name);
  }

  /** The same for a location's site (a location never changes site). */
  const locationSite = async (id: string) => (await queries.location(id)).siteId;
  const refuseUnmanagedLocation = async (request: FastifyRequest<WithId>) => {
    if (limited(request)) await refuseUnmanagedSite(request, await locationSite(request.params.id));
  };

  // Sites

  app.get<{ Querystring: { scope?: 'all' } }>(
    '/sites',
    {
      onRequest: mayView,
      schema: {
        summary:
          "The sites the caller may see, archived ones too (archivedAt set), by name; scope=all: every site's name and code, also those they may not see (where a transfer may go)",
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { scope: { type: 'string', enum: ['all'] } },
        },
        response: { 200: { type: 'array', items: siteSchema }, ...errors },
      },
    },
    async (request) => {
      const sites = await queries.sites();
      const principal = limited(request);
      if (!principal || request.query.scope === 'all') return sites;
      return sites.filter((site) => maySeeSite(principal, site.id));
    },
  );

  app.get<WithId>(
    '/sites/:id',
    {
      onRequest: mayView,
      schema: { summary: 'One site', tags, params: siteIdParams, response: { 200: siteSchema, ...errors } },
    },
    async (request) => {
      const site = await queries.site(request.params.id);
      await refuseUnseenSite(request, site.id);
      return site;
    },
  );

  app.post<{ Body: Required<Pick<SiteBody, 'name' | 'code' | 'time_zone'>> & Pick<SiteBody, 'address'> }>(
    '/sites',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Create a site (code unique in the store, an IANA time zone); its first location becomes its default',
        tags,
        body: createSiteBody,
        response: { 201: siteSchema, ...errors },
      },
    },
    async (request, reply) => {
      // A new site is one where nobody limited to some sites holds anything.
      if (limited(request)) throw new ForbiddenError("You can't add a site: your role holds at some sites only");
      const { name, code, address, time_zone } = request.body;
      return reply
        .status(201)
        .send(await sites.create({ name, code, address, timeZone: time_zone }, commandMeta(request)));
    },
  );

  app.patch<WithId & { Body: SiteBody }>(
    '/sites/:id',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Rename or edit a site (name, code, address, time zone) or choose its default location',
        tags,
        params: siteIdParams,
        body: updateSiteBody,
        response: { 200: siteSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedSite(request, request.params.id);
      const { name, code, address, time_zone, default_location_id, expected_version } = request.body;
      return sites.update(
        request.params.id,
        { name, code, address, timeZone: time_zone, defaultLocationId: default_location_id },
        expectedVersionOf(request, expected_version),
        commandMeta(request),
      );
    },
  );

  app.post<WithId>(
    '/sites/:id/archive',
    {
      onRequest: mayManage,
      schema: {
        summary: "Archive a site (409 while stock is anywhere in it, or when it is the store's only active site)",
        tags,
        params: siteIdParams,
        body: emptyBody,
        response: { 200: siteSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedSite(request, request.params.id);
      return sites.archive(request.params.id, commandMeta(request));
    },
  );

  app.post<WithId>(
    '/sites/:id/restore',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Restore an archived site',
        tags,
        params: siteIdParams,
        body: emptyBody,
        response: { 200: siteSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedSite(request, request.params.id);
      return sites.restore(request.params.id, commandMeta(request));
    },
  );

  // Locations

  app.get<{ Querystring: { siteId?: string } }>(
    '/locations',
    {
      onRequest: mayView,
      schema: {
        summary:
          "A site's locations (every site's without siteId), archived ones too, by name; parentId makes the tree",
        tags,
        querystring: locationsQuery,
        response: { 200: { type: 'array', items: locationSchema }, ...errors },
      },
    },
    async (request) => {
      const { siteId } = request.query;
      if (siteId !== undefined) await refuseUnseenSite(request, siteId);
      const found = await queries.locations(siteId);
      const principal = limited(request);
      return principal ? found.filter((location) => maySeeSite(principal, location.siteId)) : found;
    },
  );

  app.get<{ Querystring: { siteId?: string; code?: string; barcode?: string } }>(
    '/locations/by-code',
    {
      onRequest: mayView,
      schema: {
        summary:
          "The location a label names: ?siteId=&code=, or ?barcode= (a scanned shelf label); with its path of names from the site's top level",
        tags,
        querystring: findLocationQuery,
        response: { 200: foundLocationSchema, ...errors },
      },
    },
    async (request) => {
      const { siteId, code, barcode } = request.query;
      const found = async () => {
        if (barcode !== undefined && code === undefined && siteId === undefined) return queries.find({ barcode });
        if (barcode === undefined && code !== undefined && siteId !== undefined) {
          await refuseUnseenSite(request, siteId);
          return queries.find({ siteId, code });
        }
        throw new ValidationError('Give siteId and code, or barcode');
      };
      const location = await found();
      // A label of another site's shelf: refused, by its site's name.
      await refuseUnseenSite(request, location.siteId);
      return location;
    },
  );

  app.get<WithId>(
    '/locations/:id',
    {
      onRequest: mayView,
      schema: { summary: 'One location', tags, params: locationIdParams, response: { 200: locationSchema, ...errors } },
    },
    async (request) => {
      const location = await queries.location(request.params.id);
      await refuseUnseenSite(request, location.siteId);
      return location;
    },
  );

  app.post<{ Body: LocationBody & { site_id: string; name: string; code: string } }>(
    '/locations',
    {
      onRequest: mayManage,
      schema: {
        summary:
          'Create a location at a site, at its top level or inside another of its locations (code unique in the site)',
        tags,
        body: createLocationBody,
        response: { 201: locationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { site_id, parent_id, name, code, barcode } = request.body;
      await refuseUnmanagedSite(request, site_id);
      return reply
        .status(201)
        .send(
          await locations.create(
            { siteId: site_id, parentId: parent_id ?? null, name, code, barcode },
            commandMeta(request),
          ),
        );
    },
  );

  app.patch<WithId & { Body: LocationBody }>(
    '/locations/:id',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Rename a location, change its code or its label barcode (move it with /move)',
        tags,
        params: locationIdParams,
        body: updateLocationBody,
        response: { 200: locationSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedLocation(request);
      const { name, code, barcode, expected_version } = request.body;
      return locations.update(
        request.params.id,
        { name, code, barcode },
        expectedVersionOf(request, expected_version),
        commandMeta(request),
      );
    },
  );

  app.post<WithId & { Body: { parent_id: string | null; expected_version?: number } }>(
    '/locations/:id/move',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Move a location (and everything inside it) under another location of its site, or to its top level',
        tags,
        params: locationIdParams,
        body: moveLocationBody,
        response: { 200: locationSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedLocation(request);
      return locations.move(
        request.params.id,
        request.body.parent_id,
        expectedVersionOf(request, request.body.expected_version),
        commandMeta(request),
      );
    },
  );

  app.post<WithId>(
    '/locations/:id/archive',
    {
      onRequest: mayManage,
      schema: {
        summary:
          "Archive a location (409 while stock is at it or below it, while locations inside it are active, or while it is its site's default)",
        tags,
        params: locationIdParams,
        body: emptyBody,
        response: { 200: locationSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedLocation(request);
      return locations.archive(request.params.id, commandMeta(request));
    },
  );

  app.post<WithId>(
    '/locations/:id/restore',
    {
      onRequest: mayManage,
      schema: {
        summary: 'Restore an archived location (its site and parent must be active)',
        tags,
        params: locationIdParams,
        body: emptyBody,
        response: { 200: locationSchema, ...errors },
      },
    },
    async (request) => {
      await refuseUnmanagedLocation(request);
      return locations.restore(request.params.id, commandMeta(request));
    },
  );
};
