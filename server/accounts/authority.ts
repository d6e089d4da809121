// Who is acting on accounts, as the pure decisions need it: their uid, the permissions they
// hold right now, and whether they came in with an API token. The rules built on it keep
// `users:manage` from being a way to become manager: nobody hands out a permission they do
// not hold, acts on someone who holds more than they do, or does any of it with a token
// (a token's holder is a script, and what it creates would outlive the token).
import { permissionLabel, type Permission } from '../../shared/permissions.js';
import type { Principal, SiteGrant } from '../auth/principal.js';
import { atEverySite } from '../auth/site-access.js';
import { ForbiddenError } from '../errors.js';

export interface Authority {
  uid: string;
  permissions: readonly Permission[];
  /** Signed in with an API token (`srk_…`), whatever its scopes. */
  viaApiToken: boolean;
  /** Where the actor's role holds (auth/principal.ts): absent or null at every site. */
  siteGrants?: readonly SiteGrant[] | null;
}

export function authorityOf(principal: Principal): Authority {
  return {
    uid: principal.uid,
    permissions: principal.permissions,
    viaApiToken: Boolean(principal.apiToken),
    siteGrants: principal.siteGrants ?? null,
  };
}

/**
 * Refuses with 403 unless the actor's role holds at every site: what reaches every site (an
 * account that works everywhere, a role everyone may hold) is not for those limited to some.
 */
export function requireEverySite(actor: Authority, refusal: string): void {
  if (!atEverySite(actor)) throw new ForbiddenError(refusal);
}

/** The permissions in `wanted` that the actor does not hold, in a stable order. */
export function beyondAuthority(actor: Authority, wanted: readonly Permission[]): Permission[] {
  return [...new Set(wanted)].filter((p) => !actor.permissions.includes(p));
}

/**
 * Refuses with 403 when `wanted` holds a permission the actor lacks. The message is
 * `refusal` followed by the permissions missing ("...: Manage settings, Delete records").
 */
export function requireWithinAuthority(actor: Authority, wanted: readonly Permission[], refusal: string): void {
  const beyond = beyondAuthority(actor, wanted);
  if (beyond.length) throw new ForbiddenError(`${refusal}: ${beyond.map(permissionLabel).join(', ')}`);
}

/** Refuses with 403 for any API token: `what` says what a token cannot do ("change roles"). */
export function refuseApiToken(actor: Authority, what: string): void {
  if (actor.viaApiToken) throw new ForbiddenError(`An API token cannot ${what}: sign in to do this`);
}

/**
 * The actor as the accounts records say now, read under the accounts lock: the request's
 * permissions were resolved before it waited for the lock, and a demotion or a disable
 * committed meanwhile must count. No row (an account not registered yet): as resolved.
 */
export function narrowAuthority(
  actor: Authority,
  current: { role: string; status: string; siteGrants?: readonly SiteGrant[] | null } | null,
  roles: Readonly<Record<string, readonly Permission[]>>,
): Authority {
  if (!current) return actor;
  const held = current.status === 'active' && Object.hasOwn(roles, current.role) ? roles[current.role]! : [];
  const narrowed = { ...actor, permissions: actor.permissions.filter((p) => held.includes(p)) };
  // Sites given or taken meanwhile count too (undefined: the records were read without them).
  return current.siteGrants === undefined ? narrowed : { ...narrowed, siteGrants: current.siteGrants };
}
