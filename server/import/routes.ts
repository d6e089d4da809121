// /api/inventory/import routes: thin — a schema, a permission, one call. An import creates
// and edits items, so it needs both permissions those need (managers have them).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CommitBody, ImportCategoriesBody, ImportRowsBody } from '../../shared/import.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { atEverySite, mayAtSite } from '../auth/site-access.js';
import { actorOf } from '../auth/principal.js';
import type { ImportLimits } from '../config.js';
import type { ImportService, MayAtSite } from './import-service.js';
import type { SettingsService } from '../accounts/settings/settings-service.js';
import { refuseLargeFile, refuseManyRows } from './import-limits.js';
import {
  categoriesBody,
  categoriesReply,
  commitBody,
  commitReply,
  dryRunBody,
  dryRunReply,
  importErrors,
} from './schemas.js';
import { siteOfCaller } from '../inventory/places-sql.js';

const MB = 1024 * 1024;

export const importRoutes: FastifyPluginAsync<{
  imports: ImportService;
  limits: ImportLimits;
  settings: SettingsService;
}> = async (app, { imports, limits, settings }) => {
  const manage = [requirePermission('inventory:create'), requirePermission('inventory:manage')];
  /** Rows that name a site the importer may not change stock at are rejected (each says so). */
  const mayAt = (request: FastifyRequest): MayAtSite => {
    const principal = principalOf(request);
    const may: MayAtSite = (siteId) =>
      mayAtSite(principal, 'inventory:create', siteId) && mayAtSite(principal, 'inventory:manage', siteId);
    may.everySite = atEverySite(principal);
    return may;
  };

  app.post<{ Body: ImportRowsBody }>(
    '/inventory/import/dry-run',
    {
      // Allowed first (a refused user learns nothing of the limits), then the file's size.
      onRequest: [...manage, refuseLargeFile(limits)],
      preValidation: refuseManyRows(limits),
      // A whole file in one request, so rows repeating each other anywhere in it are found.
      bodyLimit: limits.maxBytes,
      schema: {
        summary: `Check every row of a CSV file as the API would; writes nothing. At most ${limits.maxRows} rows and ${limits.maxBytes} bytes (IMPORT_MAX_ROWS, IMPORT_MAX_BYTES): past either, 413`,
        tags: ['import'],
        body: dryRunBody(limits.maxRows),
        response: { 200: dryRunReply, ...importErrors },
      },
    },
    async (request) => imports.dryRun(request.body, siteOfCaller(request.principal), mayAt(request)),
  );

  app.post<{ Body: ImportCategoriesBody }>(
    '/inventory/import/categories',
    {
      onRequest: manage,
      schema: {
        summary: "Create the import's new categories the user confirmed (existing names are left as they are)",
        tags: ['import'],
        body: categoriesBody,
        response: { 200: categoriesReply, ...importErrors },
      },
    },
    async (request) => ({ categories: await imports.createCategories(request.body, actorOf(request.principal)) }),
  );

  app.post<{ Body: CommitBody }>(
    '/inventory/import/commit',
    {
      onRequest: manage,
      bodyLimit: 8 * MB,
      schema: {
        summary:
          "Write one batch of rows in one transaction; rows written before (same import id and row) are not written again. format: the file's delimiter and encoding, remembered as the store's importFormat (the exports offer it)",
        tags: ['import'],
        body: commitBody,
        response: { 200: commitReply, ...importErrors },
      },
    },
    async (request) => {
      const { format, ...body } = request.body;
      const results = await imports.commit(
        body,
        actorOf(request.principal),
        siteOfCaller(request.principal),
        mayAt(request),
      );
      // The store's exports offer "as the imported file came in" (Settings.importFormat).
      if (format) {
        const meta = { actor: actorOf(request.principal), correlationId: body.importId, importFile: body.fileName };
        await settings.change({ importFormat: format }, meta, request.log);
      }
      return { results };
    },
  );
};
