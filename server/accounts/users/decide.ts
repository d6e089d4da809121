// Decisions about one account: pure `(command, state, now) => events`, with typed errors.
// The state holds what a rule needs beyond the user's own row (who else manages the store,
// which roles exist), loaded by the service, under a lock where the rule spans accounts.
import type { UserEvent, UserStatus } from '../../../shared/accounts.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';

export interface UserSnapshot {
  uid: string;
  name: string;
  email: string | null;
  role: string;
  status: UserStatus;
  provider: string;
  managerRequest: 'pending' | null;
  browserNotifications: boolean;
}

export interface UserDecisionState {
  /** The account the command is about; null when it is not registered. */
  user: UserSnapshot | null;
  storeHasUsers: boolean;
  activeManagerIds: readonly string[];
  /** Ids of every role that exists: built-in and custom. */
  roleIds: readonly string[];
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
    }
  | { type: 'ChangeRole'; role: string; actorUid: string }
  | { type: 'Disable'; actorUid: string }
  | { type: 'Enable' }
  | { type: 'ApproveManagerRequest' }
  | { type: 'RejectManagerRequest' }
  | { type: 'UpdateProfile'; name?: string; email?: string }
  | { type: 'ChangePreferences'; browserNotifications: boolean };

const ANONYMOUS = 'anonymous';

function requireUser(state: UserDecisionState): UserSnapshot {
  if (!state.user) throw new NotFoundError('User not found');
  return state.user;
}

/** A role a manager may hand out: it exists, and guest is reserved for anonymous accounts. */
export function requireAssignableRole(role: string, roleIds: readonly string[]): void {
  if (role === 'guest') throw new ValidationError('The Guest role is only for anonymous accounts');
  if (!roleIds.includes(role)) throw new ValidationError(`Unknown role: ${role}`);
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
    requireAssignableRole(role, state.roleIds);
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

export function decideUser(command: UserCommand, state: UserDecisionState, _now: Date): UserEvent[] {
  switch (command.type) {
    case 'Register':
      return register(command, state);
    case 'ChangeRole': {
      const user = requireUser(state);
      if (user.provider === ANONYMOUS) throw new ConflictError('Guest accounts cannot be given a role');
      requireAssignableRole(command.role, state.roleIds);
      if (user.role === command.role) return [];
      if (isLastActiveManager(user, state)) throw new ConflictError('The last active manager cannot be demoted');
      return [{ type: 'UserRoleChanged', data: { uid: user.uid, role: command.role, previousRole: user.role } }];
    }
    case 'Disable': {
      const user = requireUser(state);
      if (user.status === 'disabled') return [];
      if (user.uid === command.actorUid) throw new ConflictError('You cannot disable your own account');
      if (isLastActiveManager(user, state)) throw new ConflictError('The last active manager cannot be disabled');
      return [{ type: 'UserDisabled', data: { uid: user.uid } }];
    }
    case 'Enable': {
      const user = requireUser(state);
      return user.status === 'active' ? [] : [{ type: 'UserEnabled', data: { uid: user.uid } }];
    }
    case 'ApproveManagerRequest': {
      const user = requireUser(state);
      if (user.managerRequest !== 'pending') throw new ConflictError('No pending manager request');
      const events: UserEvent[] = [{ type: 'ManagerAccessApproved', data: { uid: user.uid } }];
      if (user.role !== 'manager') {
        events.push({ type: 'UserRoleChanged', data: { uid: user.uid, role: 'manager', previousRole: user.role } });
      }
      return events;
    }
    case 'RejectManagerRequest': {
      const user = requireUser(state);
      if (user.managerRequest !== 'pending') throw new ConflictError('No pending manager request');
      return [{ type: 'ManagerAccessRejected', data: { uid: user.uid } }];
    }
    case 'UpdateProfile': {
      const user = requireUser(state);
      const changes: { name?: string; email?: string } = {};
      if (command.name !== undefined) {
        const name = command.name.trim();
        if (!name) throw new ValidationError('Name is required');
        if (name !== user.name) changes.name = name;
      }
      if (command.email !== undefined) {
        if (user.provider === ANONYMOUS) throw new ValidationError('Guest accounts have no email');
        const email = command.email.trim().toLowerCase();
        if (email !== user.email?.toLowerCase()) changes.email = email;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'UserProfileUpdated', data: { uid: user.uid, ...changes } }];
    }
    case 'ChangePreferences': {
      const user = requireUser(state);
      if (user.browserNotifications === command.browserNotifications) return [];
      return [{ type: 'AlertPreferencesChanged', data: { uid: user.uid, browserNotifications: command.browserNotifications } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}
