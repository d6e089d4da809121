// Who is acting on accounts, as the pure decisions need it: their uid, the permissions they
// hold right now, and whether they came in with an API token. The rules built on it keep
// `users:manage` from being a way to become manager: nobody hands out a permission they do
// not hold, acts on someone who holds more than they do, or does any of it with a token
// (a token's holder is a script, and what it creates would outlive the token).
import { permissionLabel, type Permission } from '../../shared/permissions.js';
import type { Principal } from '../auth/principal.js';
import { ForbiddenError } from '../errors.js';

export interface Authority {
  uid: string;
  permissions: readonly Permission[];
  /** Signed in with an API token (`srk_…`), whatever its scopes. */
  viaApiToken: boolean;
}

export function authorityOf(principal: Principal): Authority {
  return { uid: principal.uid, permissions: principal.permissions, viaApiToken: Boolean(principal.apiToken) };
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
  current: { role: string; status: string } | null,
  roles: Readonly<Record<string, readonly Permission[]>>,
): Authority {
  if (!current) return actor;
  const held = current.status === 'active' && Object.hasOwn(roles, current.role) ? roles[current.role]! : [];
  return { ...actor, permissions: actor.permissions.filter((p) => held.includes(p)) };
}
