// Row locks and uniqueness checks the site and location commands share. Every change to a
// site's tree (a location created, moved, archived or restored) locks the site's row first,
// so two of them in one site go one after the other: two moves cannot make a cycle between
// them, and nothing goes under a location while it is being archived. Codes and barcodes are
// checked here for a message that names the holder; the unique indexes catch the races.
import { sql } from 'kysely';
import { ConflictError, NotFoundError } from '../errors.js';
import { isUniqueViolation } from '../eventstore/event-store.js';
import type { Transaction } from '../eventstore/types.js';
import { lockedBarcodeHolder } from '../inventory/barcode-holder.js';
import { locationColumns, siteColumns, toLocation, toSite, type LocationRow, type SiteRow } from './place-rows.js';

export async function lockSite(trx: Transaction, id: string): Promise<SiteRow | null> {
  const rows = await sql<SiteRow>`select ${sql.raw(siteColumns)} from sites where id = ${id} for update`.execute(trx);
  return rows.rows[0] ?? null;
}

export async function lockLocation(trx: Transaction, id: string): Promise<LocationRow | null> {
  const rows =
    await sql<LocationRow>`select ${sql.raw(locationColumns)} from locations where id = ${id} for update`.execute(trx);
  return rows.rows[0] ?? null;
}

export async function readLocation(trx: Transaction, id: string | null | undefined): Promise<LocationRow | null> {
  if (!id) return null;
  const rows = await sql<LocationRow>`select ${sql.raw(locationColumns)} from locations where id = ${id}`.execute(trx);
  return rows.rows[0] ?? null;
}

/** A location and its site, the site's row locked first (the tree's lock, see above). */
export async function lockTreeOf(
  trx: Transaction,
  locationId: string,
): Promise<{ site: SiteRow | null; location: LocationRow | null }> {
  // A location never changes site: its site read without a lock is its site.
  const found = await sql<{
    site_id: string;
  }>`select site_id::text as site_id from locations where id = ${locationId}`.execute(trx);
  const siteId = found.rows[0]?.site_id;
  if (!siteId) return { site: null, location: null };
  const site = await lockSite(trx, siteId);
  return { site, location: await lockLocation(trx, locationId) };
}

export async function requireFreeSiteCode(trx: Transaction, code: string, exceptId: string | null): Promise<void> {
  const rows = await sql<{ name: string }>`select name from sites
    where lower(code) = lower(${code.trim()}) and id is distinct from ${exceptId}::uuid`.execute(trx);
  if (rows.rows[0])
    throw new ConflictError(`Code ${code.trim()} is already used by ${rows.rows[0].name}`, { field: 'code' });
}

export async function requireFreeLocationCode(
  trx: Transaction,
  siteId: string,
  code: string,
  exceptId: string | null,
): Promise<void> {
  const rows = await sql<{ name: string; archived: boolean }>`select name, archived_at is not null as archived
    from locations where site_id = ${siteId} and lower(code) = lower(${code.trim()}) and id is distinct from ${exceptId}::uuid`.execute(
    trx,
  );
  const holder = rows.rows[0];
  if (holder)
    throw new ConflictError(
      `Code ${code.trim()} is already used by ${holder.name}${holder.archived ? ' (archived)' : ''} at this site`,
      { field: 'code' },
    );
}

/** A scan must have one answer: a location's barcode is no other location's and no item's. */
export async function requireFreeBarcode(
  trx: Transaction,
  barcode: string | null | undefined,
  exceptId: string | null,
): Promise<void> {
  const code = barcode?.trim();
  if (!code) return;
  const holder = await lockedBarcodeHolder(trx, code, { locationId: exceptId });
  if (holder) throw new ConflictError(`Barcode already used by ${holder.what} ${holder.name}`, { field: 'barcode' });
}

/** A missing row, or one changed since the version the client loaded (If-Match or expected_version). */
export function requireSiteVersion(row: SiteRow | null, expectedVersion: number | undefined): void {
  if (!row) throw new NotFoundError('Site not found');
  if (expectedVersion !== undefined && expectedVersion !== Number(row.version))
    throw new ConflictError('This site was changed by someone else', { current: toSite(row) });
}

export function requireLocationVersion(row: LocationRow | null, expectedVersion: number | undefined): void {
  if (!row) throw new NotFoundError('Location not found');
  if (expectedVersion !== undefined && expectedVersion !== Number(row.version))
    throw new ConflictError('This location was changed by someone else', { current: toLocation(row) });
}

export function mapPlaceConstraintErrors(error: unknown): never {
  if (isUniqueViolation(error, 'sites_code_unique'))
    throw new ConflictError('Another site has that code', { field: 'code' });
  if (isUniqueViolation(error, 'locations_code_unique'))
    throw new ConflictError('Another location at this site has that code', { field: 'code' });
  if (isUniqueViolation(error, 'locations_barcode_unique'))
    throw new ConflictError('Barcode already used by another location', { field: 'barcode' });
  throw error;
}
