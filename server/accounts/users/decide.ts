// Decisions about one account: pure `(command, state, now) => events`, with typed errors.
// The state holds what a rule needs beyond the user's own row (who else manages the store,
// which roles exist and what they allow), loaded by the service, under a lock where the
// rule spans accounts. Commands a person gives about others carry their authority
// (authority.ts): nobody gives a role they could not hold, acts on someone who holds more
// than they do, changes their own role, or does any of it with an API token. Roles per site
// extend the same rules to places (site-roles-decide.ts): nobody gives or takes away at a
// site what they do not hold there, and only those who work at every site act on those who do.
import type { UserEvent, UserStatus } from '../../../shared/accounts.js';
import type { SiteRoles } from '../../../shared/site-roles.js';
import type { Permission } from '../../../shared/permissions.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { refuseApiToken, requireEverySite, requireWithinAuthority, type Authority } from '../authority.js';
import {
  cleanSiteRoles,
  requireGivable,
  requireReachesAsFar,
  sameSiteRoles,
  type KnownSites,
} from './site-roles-decide.js';

export interface UserSnapshot {
  uid: string;
  name: string;
  email: string | null;
  role: string;
  status: UserStatus;
  provider: string;
  managerRequest: 'pending' | null;
  browserNotifications: boolean;
  /** Where their role holds: null (or absent) at every site (shared/site-roles.ts). */
  siteRoles?: SiteRoles;
}

export interface UserDecisionState {
  /** The account the command is about; null when it is not registered. */
  user: UserSnapshot | null;
  storeHasUsers: boolean;
  activeManagerIds: readonly string[];
  /** Every role that exists (built-in and custom) with the permissions it grants. */
  roles: Readonly<Record<string, readonly Permission[]>>;
  /** Active managers who work at every site (absent: as activeManagerIds, none limited to sites). */
  allSitesManagerIds?: readonly string[];
  /** The store's sites, for roles per site (absent: none loaded). */
  sites?: KnownSites;
}

export type UserCommand =
  | {
      type: 'Register';
      uid: string;
      name: string | null;
      email: string | null;
      provider: string;
      avatar: string | null;
      registeredBy: 'self' | 'manager' | 'seed';
      /** Self sign-up: the role picked on the form. Manager or seed: the role to give. */
      requestedRole: string | null;
      /** Who creates the account when registeredBy is 'manager'. */
      actor?: Authority;
    }
  | { type: 'ChangeRole'; role: string; actor: Authority }
  | { type: 'Disable'; actor: Authority }
  | { type: 'Enable'; actor: Authority }
  | { type: 'ApproveManagerRequest'; actor: Authority }
  /** Where the user's role holds: every site (null) or a role per listed site. */
  | { type: 'SetSiteRoles'; siteRoles: SiteRoles; actor: Authority }
  | { type: 'RejectManagerRequest' }
  | { type: 'UpdateProfile'; name: string }
  /** Firebase reports a new email for the account: its owner followed the verification link. */
  | { type: 'SyncEmail'; email: string }
  | { type: 'ChangePreferences'; browserNotifications: boolean };

/** How the caller of a request proved who they are. */
export interface SignInProof {
  /** An API token (`srk_…`), whatever its scopes: never a sign-in of the person. */
  viaApiToken: boolean;
  /** The ID token's `auth_time` (seconds since the epoch): the last sign-in with a credential. */
  authTime: number | null;
}

/** How recent a sign-in must be to change the email or password (Firebase's own window). */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;
export const SIGN_IN_AGAIN = 'Sign in again to change your email or password';
export const TOKEN_CANNOT_CHANGE_LOGIN = 'An API token cannot change your email or password';

const ANONYMOUS = 'anonymous';

function requireUser(state: UserDecisionState): UserSnapshot {
  if (!state.user) throw new NotFoundError('User not found');
  return state.user;
}

/** A role a manager may hand out: it exists, and guest is reserved for anonymous accounts. */
export function requireAssignableRole(role: string, roles: UserDecisionState['roles']): void {
  if (role === 'guest') throw new ValidationError('The Guest role is only for anonymous accounts');
  if (!Object.hasOwn(roles, role)) throw new ValidationError(`Unknown role: ${role}`);
}

function permissionsOf(role: string, roles: UserDecisionState['roles']): readonly Permission[] {
  return Object.hasOwn(roles, role) ? roles[role]! : [];
}

/** A role the actor may give: assignable, and nothing in it that the actor lacks. */
function requireGivableRole(actor: Authority, role: string, roles: UserDecisionState['roles'], refusal: string): void {
  requireAssignableRole(role, roles);
  requireWithinAuthority(actor, permissionsOf(role, roles), refusal);
}

/**
 * Before a manager's Add User makes a Firebase account: the actor may create accounts (no
 * API token) and give this role. Decided again, under the lock, when it is registered.
 */
export function decideAccountCreation(actor: Authority, role: string, roles: UserDecisionState['roles']): void {
  refuseApiToken(actor, 'create accounts');
  // A new account works at every site until given sites.
  requireEverySite(actor, "You can't create an account with access to every site: you don't have it yourself");
  requireGivableRole(actor, role, roles, "You can't create an account with permissions you don't have yourself");
}

/** Acting on someone who holds more than you would let you take what you lack. */
function requireNotAbove(
  actor: Authority,
  user: UserSnapshot,
  roles: UserDecisionState['roles'],
  refusal: string,
): void {
  requireWithinAuthority(actor, permissionsOf(user.role, roles), refusal);
}

/** A person's name as kept: trimmed, never blank. */
export function cleanName(name: string): string {
  const clean = name.trim();
  if (!clean) throw new ValidationError('Name is required');
  return clean;
}

/**
 * Changing the login email (and so who can reset the password) takes the person themself,
 * freshly signed in: never an API token, never an ID token older than five minutes.
 */
export function requireRecentSignIn(proof: SignInProof, now: Date): void {
  if (proof.viaApiToken) throw new ForbiddenError(TOKEN_CANNOT_CHANGE_LOGIN);
  const age = now.getTime() / 1000 - (proof.authTime ?? Number.NEGATIVE_INFINITY);
  // 401, not 403: signing in again (re-entering the password) is what lets this through.
  if (!(age <= RECENT_SIGN_IN_SECONDS)) throw new UnauthorizedError(SIGN_IN_AGAIN);
}

/**
 * A request to change the account's email: the normalized new address, to be sent through
 * verification (the change happens when its owner follows the link), or null when it is
 * the current one. Nothing is recorded until Firebase reports the change (SyncEmail).
 */
export function decideEmailChange(
  email: string,
  proof: SignInProof,
  user: UserSnapshot | null,
  now: Date,
): string | null {
  if (!user) throw new NotFoundError('User not found');
  if (user.provider === ANONYMOUS || user.email === null) throw new ValidationError('Guest accounts have no email');
  const wanted = email.trim().toLowerCase();
  if (wanted === user.email.toLowerCase()) return null;
  requireRecentSignIn(proof, now);
  return wanted;
}

/** Someone's sites (their role at each): acting on them must not reach further than the actor does. */
function requireSitesWithin(actor: Authority, user: UserSnapshot, state: UserDecisionState, refusal: string): void {
  requireReachesAsFar(actor, user, state.roles, state.sites ?? {}, refusal);
}

/** The one active manager left who works at every site (somebody must see the whole store). */
function isLastAllSitesManager(user: UserSnapshot, state: UserDecisionState): boolean {
  const ids = state.allSitesManagerIds;
  return (
    ids !== undefined &&
    user.role === 'manager' &&
    user.status === 'active' &&
    (user.siteRoles ?? null) === null &&
    ids.length === 1 &&
    ids[0] === user.uid
  );
}

function isLastActiveManager(user: UserSnapshot, state: UserDecisionState): boolean {
  return (
    user.role === 'manager' &&
    user.status === 'active' &&
    state.activeManagerIds.length === 1 &&
    state.activeManagerIds[0] === user.uid
  );
}

function displayName(name: string | null, email: string | null, provider: string): string {
  const given = name?.trim();
  if (given) return given;
  if (email) return email.split('@')[0]!;
  return provider === ANONYMOUS ? 'Guest' : 'Unknown User';
}

function register(command: Extract<UserCommand, { type: 'Register' }>, state: UserDecisionState): UserEvent[] {
  if (state.user) return []; // signing in again registers nothing
  const anonymous = command.provider === ANONYMOUS;
  let role: string;
  let founder = false;
  let requestsManager = false;
  if (anonymous) {
    role = 'guest';
  } else if (command.registeredBy === 'self') {
    // The first account of a store runs it; later ones ask a manager for manager access.
    founder = !state.storeHasUsers;
    role = founder ? 'manager' : 'staff';
    requestsManager = !founder && command.requestedRole === 'manager';
  } else {
    role = command.requestedRole ?? 'staff';
    if (command.registeredBy === 'manager') {
      if (!command.actor) throw new Error('An account created by a manager needs who created it');
      decideAccountCreation(command.actor, role, state.roles);
    } else {
      requireAssignableRole(role, state.roles);
    }
    founder = !state.storeHasUsers && role === 'manager';
  }
  const events: UserEvent[] = [
    {
      type: 'UserRegistered',
      data: {
        uid: command.uid,
        name: displayName(command.name, command.email, command.provider),
        email: command.email,
        role,
        provider: command.provider,
        avatar: command.avatar,
        founder,
        registeredBy: command.registeredBy,
      },
    },
  ];
  if (requestsManager) events.push({ type: 'ManagerAccessRequested', data: { uid: command.uid } });
  return events;
}

/**
 * Where someone's role holds. The actor must reach as far as the person does now (what is
 * taken away) and as far as what is given, site by site; a role at a site stays within the
 * person's own role; the last manager who works at every site keeps every site.
 */
function setSiteRoles(command: Extract<UserCommand, { type: 'SetSiteRoles' }>, state: UserDecisionState): UserEvent[] {
  refuseApiToken(command.actor, 'change where people work');
  const user = requireUser(state);
  if (user.provider === ANONYMOUS) throw new ConflictError('Guest accounts cannot be given a role');
  if (user.uid === command.actor.uid) throw new ForbiddenError('You cannot change your own sites');
  const sites = state.sites ?? {};
  requireNotAbove(
    command.actor,
    user,
    state.roles,
    "You can't change the sites of someone with permissions you don't have yourself",
  );
  requireSitesWithin(
    command.actor,
    user,
    state,
    "You can't change the sites of someone with permissions you don't have yourself",
  );
  const current = user.siteRoles ?? null;
  const siteRoles = cleanSiteRoles(command.siteRoles, current, user, state.roles, sites);
  requireGivable(command.actor, siteRoles, user.role, state.roles, sites);
  if (sameSiteRoles(current, siteRoles)) return [];
  if (siteRoles !== null && isLastAllSitesManager(user, state))
    throw new ConflictError('The last manager who works at every site must keep every site');
  return [{ type: 'UserSiteRolesSet', data: { uid: user.uid, siteRoles } }];
}

export function decideUser(command: UserCommand, state: UserDecisionState, _now: Date): UserEvent[] {
  switch (command.type) {
    case 'Register':
      return register(command, state);
    case 'ChangeRole': {
      refuseApiToken(command.actor, 'change roles');
      const user = requireUser(state);
      if (user.provider === ANONYMOUS) throw new ConflictError('Guest accounts cannot be given a role');
      if (user.uid === command.actor.uid) throw new ForbiddenError('You cannot change your own role');
      requireNotAbove(
        command.actor,
        user,
        state.roles,
        "You can't change the role of someone with permissions you don't have yourself",
      );
      requireSitesWithin(
        command.actor,
        user,
        state,
        "You can't change the role of someone with permissions you don't have yourself",
      );
      requireGivableRole(
        command.actor,
        command.role,
        state.roles,
        "You can't assign a role with permissions you don't have yourself",
      );
      if (user.role === command.role) return [];
      if (isLastActiveManager(user, state)) throw new ConflictError('The last active manager cannot be demoted');
      if (isLastAllSitesManager(user, state))
        throw new ConflictError('The last manager who works at every site cannot be demoted');
      return [{ type: 'UserRoleChanged', data: { uid: user.uid, role: command.role, previousRole: user.role } }];
    }
    case 'Disable': {
      const user = requireUser(state);
      if (user.status === 'disabled') return [];
      if (user.uid === command.actor.uid) throw new ConflictError('You cannot disable your own account');
      requireNotAbove(
        command.actor,
        user,
        state.roles,
        "You can't disable someone with permissions you don't have yourself",
      );
      requireSitesWithin(
        command.actor,
        user,
        state,
        "You can't disable someone with permissions you don't have yourself",
      );
      if (isLastActiveManager(user, state)) throw new ConflictError('The last active manager cannot be disabled');
      if (isLastAllSitesManager(user, state))
        throw new ConflictError('The last manager who works at every site cannot be disabled');
      return [{ type: 'UserDisabled', data: { uid: user.uid } }];
    }
    case 'Enable': {
      const user = requireUser(state);
      if (user.status === 'active') return [];
      requireNotAbove(
        command.actor,
        user,
        state.roles,
        "You can't enable someone with permissions you don't have yourself",
      );
      requireSitesWithin(
        command.actor,
        user,
        state,
        "You can't enable someone with permissions you don't have yourself",
      );
      return [{ type: 'UserEnabled', data: { uid: user.uid } }];
    }
    case 'ApproveManagerRequest': {
      refuseApiToken(command.actor, 'change roles');
      const user = requireUser(state);
      if (user.managerRequest !== 'pending') throw new ConflictError('No pending manager request');
      if (user.uid === command.actor.uid) throw new ForbiddenError('You cannot change your own role');
      requireSitesWithin(
        command.actor,
        { ...user, role: 'manager' },
        state,
        "You can't assign a role with permissions you don't have yourself",
      );
      const events: UserEvent[] = [{ type: 'ManagerAccessApproved', data: { uid: user.uid } }];
      if (user.role !== 'manager') {
        requireGivableRole(
          command.actor,
          'manager',
          state.roles,
          "You can't assign a role with permissions you don't have yourself",
        );
        events.push({ type: 'UserRoleChanged', data: { uid: user.uid, role: 'manager', previousRole: user.role } });
      }
      return events;
    }
    case 'SetSiteRoles':
      return setSiteRoles(command, state);
    case 'RejectManagerRequest': {
      const user = requireUser(state);
      if (user.managerRequest !== 'pending') throw new ConflictError('No pending manager request');
      return [{ type: 'ManagerAccessRejected', data: { uid: user.uid } }];
    }
    case 'UpdateProfile': {
      // The name only: an email goes through verification first (decideEmailChange).
      const user = requireUser(state);
      const name = cleanName(command.name);
      if (name === user.name) return [];
      return [{ type: 'UserProfileUpdated', data: { uid: user.uid, name } }];
    }
    case 'SyncEmail': {
      const user = requireUser(state);
      const email = command.email.trim().toLowerCase();
      if (!email || email === user.email?.toLowerCase()) return [];
      return [{ type: 'UserProfileUpdated', data: { uid: user.uid, email } }];
    }
    case 'ChangePreferences': {
      const user = requireUser(state);
      if (user.browserNotifications === command.browserNotifications) return [];
      return [
        {
          type: 'AlertPreferencesChanged',
          data: { uid: user.uid, browserNotifications: command.browserNotifications },
        },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}
