// The accounts decisions without a database: given a state, when a command, then events
// (or a typed error).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, type Permission } from '../../shared/permissions.js';
import { narrowAuthority, type Authority } from '../../server/accounts/authority.js';
import { decideRole, type RoleDecisionState } from '../../server/accounts/roles/decide.js';
import { decideSettings } from '../../server/accounts/settings/decide.js';
import {
  decideAccountCreation,
  decideEmailChange,
  decideUser,
  RECENT_SIGN_IN_SECONDS,
  type UserDecisionState,
  type UserSnapshot,
} from '../../server/accounts/users/decide.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../../server/errors.js';

const now = new Date('2026-01-01T00:00:00Z');
const ROLES: Record<string, readonly Permission[]> = {
  manager: BUILT_IN_ROLES.manager.permissions,
  staff: BUILT_IN_ROLES.staff.permissions,
  guest: BUILT_IN_ROLES.guest.permissions,
  'role-auditor': ['inventory:view'],
  // A custom role that could be abused to climb: only users:view and users:manage.
  'role-hr': ['users:view', 'users:manage'],
};

/** A manager (every permission), signed in as a person. */
const boss: Authority = { uid: 'boss', permissions: ALL_PERMISSIONS, viaApiToken: false };
const hr: Authority = { uid: 'hr', permissions: ROLES['role-hr']!, viaApiToken: false };
const as = (uid: string, fields: Partial<Authority> = {}): Authority => ({ ...boss, uid, ...fields });

const user = (fields: Partial<UserSnapshot> = {}): UserSnapshot => ({
  uid: 'u1',
  name: 'Uma',
  email: 'uma@shop.test',
  role: 'staff',
  status: 'active',
  provider: 'password',
  managerRequest: null,
  browserNotifications: false,
  ...fields,
});

const state = (fields: Partial<UserDecisionState> = {}): UserDecisionState => ({
  user: null,
  storeHasUsers: true,
  activeManagerIds: ['boss'],
  roles: ROLES,
  ...fields,
});

const register = (fields: Record<string, unknown> = {}) => ({
  type: 'Register' as const,
  uid: 'u1',
  name: null,
  email: 'uma@shop.test',
  provider: 'password',
  avatar: null,
  registeredBy: 'self' as const,
  requestedRole: null,
  ...fields,
});

describe('registering an account', () => {
  it('makes the first account of an empty store its manager, whatever it asked for', () => {
    const [event] = decideUser(register({ requestedRole: 'staff' }), state({ storeHasUsers: false }), now);
    expect(event).toEqual({
      type: 'UserRegistered',
      data: {
        uid: 'u1',
        name: 'uma',
        email: 'uma@shop.test',
        role: 'manager',
        provider: 'password',
        avatar: null,
        founder: true,
        registeredBy: 'self',
      },
    });
  });

  it('makes a later sign-up asking for manager staff with a pending request', () => {
    const events = decideUser(register({ requestedRole: 'manager', name: ' Uma  ' }), state(), now);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'ManagerAccessRequested']);
    expect(events[0]!.data).toMatchObject({ role: 'staff', founder: false, name: 'Uma' });
  });

  it('makes anonymous accounts guests, even in an empty store', () => {
    const events = decideUser(
      register({ provider: 'anonymous', email: null, requestedRole: 'manager' }),
      state({ storeHasUsers: false }),
      now,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ role: 'guest', founder: false, name: 'Guest' });
  });

  it('registers nothing for an account already known', () => {
    expect(decideUser(register(), state({ user: user() }), now)).toEqual([]);
  });

  it('gives a manager-created account the chosen role, which must exist and not be guest', () => {
    const byManager = (role: string) => register({ registeredBy: 'manager', requestedRole: role, actor: boss });
    const events = decideUser(byManager('role-auditor'), state(), now);
    expect(events[0]!.data).toMatchObject({ role: 'role-auditor', registeredBy: 'manager' });
    expect(() => decideUser(byManager('role-gone'), state(), now)).toThrow(ValidationError);
    expect(() => decideUser(byManager('guest'), state(), now)).toThrow(ValidationError);
  });
});

describe('changing roles and status', () => {
  it('records a role change with the previous role', () => {
    expect(decideUser({ type: 'ChangeRole', role: 'manager', actor: boss }, state({ user: user() }), now)).toEqual([
      { type: 'UserRoleChanged', data: { uid: 'u1', role: 'manager', previousRole: 'staff' } },
    ]);
  });

  it('refuses to demote or disable the last active manager', () => {
    const last = state({ user: user({ uid: 'boss', role: 'manager' }), activeManagerIds: ['boss'] });
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actor: as('other') }, last, now)).toThrow(
      'The last active manager cannot be demoted',
    );
    expect(() => decideUser({ type: 'Disable', actor: as('other') }, last, now)).toThrow(
      'The last active manager cannot be disabled',
    );
    const two = { ...last, activeManagerIds: ['boss', 'deputy'] };
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actor: as('deputy') }, two, now)).toHaveLength(1);
  });

  it('lets a disabled manager be demoted even when one other manager is left', () => {
    const s = state({ user: user({ uid: 'old', role: 'manager', status: 'disabled' }), activeManagerIds: ['boss'] });
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actor: boss }, s, now)).toHaveLength(1);
  });

  it('refuses unknown roles, guest, and roles for anonymous accounts', () => {
    expect(() =>
      decideUser({ type: 'ChangeRole', role: 'role-gone', actor: boss }, state({ user: user() }), now),
    ).toThrow(ValidationError);
    expect(() => decideUser({ type: 'ChangeRole', role: 'guest', actor: boss }, state({ user: user() }), now)).toThrow(
      ValidationError,
    );
    const anon = state({ user: user({ provider: 'anonymous', role: 'guest' }) });
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actor: boss }, anon, now)).toThrow(ConflictError);
  });

  it('refuses to act on a missing account and to disable oneself', () => {
    expect(() => decideUser({ type: 'Enable', actor: boss }, state(), now)).toThrow(NotFoundError);
    expect(() => decideUser({ type: 'Disable', actor: as('u1') }, state({ user: user() }), now)).toThrow(
      'You cannot disable your own account',
    );
  });

  it('writes nothing when nothing changes', () => {
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actor: boss }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'Enable', actor: boss }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'Disable', actor: boss }, state({ user: user({ status: 'disabled' }) }), now)).toEqual(
      [],
    );
    expect(decideUser({ type: 'UpdateProfile', name: 'Uma' }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'SyncEmail', email: 'UMA@shop.test' }, state({ user: user() }), now)).toEqual([]);
    expect(
      decideUser({ type: 'ChangePreferences', browserNotifications: false }, state({ user: user() }), now),
    ).toEqual([]);
  });
});

describe('manager requests', () => {
  it('approves a pending request into the manager role', () => {
    const events = decideUser(
      { type: 'ApproveManagerRequest', actor: boss },
      state({ user: user({ managerRequest: 'pending' }) }),
      now,
    );
    expect(events.map((e) => e.type)).toEqual(['ManagerAccessApproved', 'UserRoleChanged']);
    expect(events[1]!.data).toMatchObject({ role: 'manager', previousRole: 'staff' });
  });

  it('refuses to answer when nothing is pending', () => {
    expect(() => decideUser({ type: 'ApproveManagerRequest', actor: boss }, state({ user: user() }), now)).toThrow(
      'No pending manager request',
    );
    expect(() => decideUser({ type: 'RejectManagerRequest' }, state({ user: user() }), now)).toThrow(
      'No pending manager request',
    );
  });
});

describe('profile', () => {
  it('records a changed name, trimmed, and an email Firebase confirmed, in lower case', () => {
    expect(decideUser({ type: 'UpdateProfile', name: ' Uma Q ' }, state({ user: user() }), now)).toEqual([
      { type: 'UserProfileUpdated', data: { uid: 'u1', name: 'Uma Q' } },
    ]);
    expect(decideUser({ type: 'SyncEmail', email: 'New@Shop.test' }, state({ user: user() }), now)).toEqual([
      { type: 'UserProfileUpdated', data: { uid: 'u1', email: 'new@shop.test' } },
    ]);
  });

  it('refuses a blank name', () => {
    expect(() => decideUser({ type: 'UpdateProfile', name: '  ' }, state({ user: user() }), now)).toThrow(
      'Name is required',
    );
  });
});

describe('custom roles', () => {
  const roleState = (fields: Partial<RoleDecisionState> = {}): RoleDecisionState => ({
    role: null,
    otherNames: ['Store Manager', 'Staff Member', 'Guest'],
    userCount: 0,
    ...fields,
  });
  const body = { name: 'Auditor', description: 'Looks', permissions: ['inventory:view' as const] };

  it('creates a role with a trimmed name', () => {
    expect(
      decideRole({ type: 'CreateRole', id: 'role-1', actor: boss, ...body, name: ' Auditor ' }, roleState(), now),
    ).toEqual([{ type: 'RoleCreated', data: { id: 'role-1', ...body } }]);
  });

  it('keeps names unique regardless of case', () => {
    expect(() =>
      decideRole({ type: 'CreateRole', id: 'role-1', actor: boss, ...body, name: 'store manager' }, roleState(), now),
    ).toThrow(ConflictError);
  });

  it('refuses to edit or delete built-in roles', () => {
    expect(() => decideRole({ type: 'UpdateRole', id: 'staff', actor: boss, ...body }, roleState(), now)).toThrow(
      'Built-in roles cannot be changed',
    );
    expect(() => decideRole({ type: 'DeleteRole', id: 'manager', actor: boss }, roleState(), now)).toThrow(
      'Built-in roles cannot be changed',
    );
  });

  it('refuses to delete a role in use', () => {
    const existing = { id: 'role-1', ...body };
    expect(() =>
      decideRole({ type: 'DeleteRole', id: 'role-1', actor: boss }, roleState({ role: existing, userCount: 2 }), now),
    ).toThrow('Role is in use');
    expect(decideRole({ type: 'DeleteRole', id: 'role-1', actor: boss }, roleState({ role: existing }), now)).toEqual([
      { type: 'RoleDeleted', data: { id: 'role-1', name: 'Auditor' } },
    ]);
  });

  it('writes nothing for an unchanged edit', () => {
    expect(
      decideRole(
        { type: 'UpdateRole', id: 'role-1', actor: boss, ...body },
        roleState({ role: { id: 'role-1', ...body } }),
        now,
      ),
    ).toEqual([]);
  });
});

describe('no way up through Manage users', () => {
  const token = (fields: Partial<Authority> = {}): Authority => ({
    ...boss,
    uid: 'boss',
    viaApiToken: true,
    ...fields,
  });
  const member = (uid: string, role: string) => state({ user: user({ uid, role }) });

  it('refuses anyone changing their own role, whatever they hold', () => {
    expect(() => decideUser({ type: 'ChangeRole', role: 'manager', actor: hr }, member('hr', 'role-hr'), now)).toThrow(
      new ForbiddenError('You cannot change your own role'),
    );
    // A manager cannot step down by themself either (another manager can demote them).
    const two = { ...member('boss', 'manager'), activeManagerIds: ['boss', 'deputy'] };
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actor: boss }, two, now)).toThrow(
      'You cannot change your own role',
    );
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actor: as('deputy') }, two, now)).toHaveLength(1);
  });

  it('refuses to assign a role holding a permission the actor lacks, naming what is missing', () => {
    const broadHr: Authority = {
      uid: 'hr',
      permissions: ['users:view', 'users:manage', 'inventory:view'],
      viaApiToken: false,
    };
    const auditor = member('u1', 'role-auditor');
    expect(() => decideUser({ type: 'ChangeRole', role: 'manager', actor: broadHr }, auditor, now)).toThrow(
      new ForbiddenError(
        "You can't assign a role with permissions you don't have yourself: Add items and categories, Manage inventory, Update stock levels, View reports, Manage settings, Delete records, Revert changes, Run stocktakes, View personal profile",
      ),
    );
    // Within what the actor holds: allowed.
    expect(decideUser({ type: 'ChangeRole', role: 'role-hr', actor: broadHr }, auditor, now)).toEqual([
      { type: 'UserRoleChanged', data: { uid: 'u1', role: 'role-hr', previousRole: 'role-auditor' } },
    ]);
  });

  it('refuses to act on someone holding more than the actor: role, disable, enable', () => {
    const manager = { ...member('m1', 'manager'), activeManagerIds: ['m1', 'boss'] };
    expect(() => decideUser({ type: 'ChangeRole', role: 'role-hr', actor: hr }, manager, now)).toThrow(
      /^You can't change the role of someone with permissions you don't have yourself: View inventory/,
    );
    expect(() => decideUser({ type: 'Disable', actor: hr }, manager, now)).toThrow(
      /^You can't disable someone with permissions you don't have yourself/,
    );
    const disabledManager = state({ user: user({ uid: 'm1', role: 'manager', status: 'disabled' }) });
    expect(() => decideUser({ type: 'Enable', actor: hr }, disabledManager, now)).toThrow(
      /^You can't enable someone with permissions you don't have yourself/,
    );
    expect(decideUser({ type: 'Enable', actor: boss }, disabledManager, now)).toHaveLength(1);
  });

  it('lets only someone holding every permission approve a manager request, never for themself', () => {
    const pending = state({ user: user({ managerRequest: 'pending', role: 'role-hr', uid: 'hr' }) });
    expect(() => decideUser({ type: 'ApproveManagerRequest', actor: hr }, pending, now)).toThrow(
      'You cannot change your own role',
    );
    const other = state({ user: user({ managerRequest: 'pending', role: 'role-hr' }) });
    expect(() => decideUser({ type: 'ApproveManagerRequest', actor: hr }, other, now)).toThrow(
      /^You can't assign a role with permissions you don't have yourself/,
    );
    expect(decideUser({ type: 'ApproveManagerRequest', actor: boss }, other, now)).toHaveLength(2);
  });

  it('keeps the last active manager even against a custom role holding every permission', () => {
    const coOwner = as('co-owner');
    const last = { ...member('boss', 'manager'), activeManagerIds: ['boss'] };
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actor: coOwner }, last, now)).toThrow(
      new ConflictError('The last active manager cannot be demoted'),
    );
    expect(() => decideUser({ type: 'Disable', actor: coOwner }, last, now)).toThrow(
      'The last active manager cannot be disabled',
    );
  });

  it('never lets an API token change roles or create accounts, whatever its permissions', () => {
    expect(() =>
      decideUser({ type: 'ChangeRole', role: 'manager', actor: token() }, member('u1', 'staff'), now),
    ).toThrow(new ForbiddenError('An API token cannot change roles: sign in to do this'));
    expect(() =>
      decideUser(
        { type: 'ApproveManagerRequest', actor: token() },
        state({ user: user({ managerRequest: 'pending' }) }),
        now,
      ),
    ).toThrow('An API token cannot change roles: sign in to do this');
    expect(() => decideAccountCreation(token(), 'staff', ROLES)).toThrow(
      new ForbiddenError('An API token cannot create accounts: sign in to do this'),
    );
    expect(() =>
      decideUser(register({ registeredBy: 'manager', requestedRole: 'staff', actor: token() }), state(), now),
    ).toThrow(ForbiddenError);
  });

  it('refuses to create an account with a role beyond the actor, before and when registering it', () => {
    expect(() => decideAccountCreation(hr, 'manager', ROLES)).toThrow(
      /^You can't create an account with permissions you don't have yourself: View inventory/,
    );
    expect(() =>
      decideUser(register({ registeredBy: 'manager', requestedRole: 'manager', actor: hr }), state(), now),
    ).toThrow(ForbiddenError);
    expect(() => decideAccountCreation(hr, 'role-hr', ROLES)).not.toThrow();
    expect(() => decideAccountCreation(boss, 'manager', ROLES)).not.toThrow();
    expect(() => decideAccountCreation(boss, 'guest', ROLES)).toThrow(ValidationError);
  });

  it('judges the actor by the records read under the lock, not by what the request started with', () => {
    // Demoted to the HR role (or disabled) while the request waited: only what is held now counts.
    expect(narrowAuthority(boss, { role: 'role-hr', status: 'active' }, ROLES).permissions).toEqual([
      'users:view',
      'users:manage',
    ]);
    expect(narrowAuthority(boss, { role: 'manager', status: 'disabled' }, ROLES).permissions).toEqual([]);
    expect(narrowAuthority(boss, { role: 'role-gone', status: 'active' }, ROLES).permissions).toEqual([]);
    // An API token's narrower grant stays narrow; no record yet (not registered): as resolved.
    expect(narrowAuthority(hr, { role: 'manager', status: 'active' }, ROLES).permissions).toEqual([
      'users:view',
      'users:manage',
    ]);
    expect(narrowAuthority(hr, null, ROLES)).toEqual(hr);
  });

  describe('roles', () => {
    const roleState = (fields: Partial<RoleDecisionState> = {}): RoleDecisionState => ({
      role: null,
      otherNames: [],
      userCount: 0,
      ...fields,
    });
    const body = (permissions: Permission[]) => ({ name: 'Helpers', description: 'Help', permissions });

    it('refuses to create or edit a role with permissions the actor lacks', () => {
      expect(() =>
        decideRole(
          { type: 'CreateRole', id: 'role-x', actor: hr, ...body(['users:view', 'settings:manage']) },
          roleState(),
          now,
        ),
      ).toThrow(
        new ForbiddenError("You can't create a role with permissions you don't have yourself: Manage settings"),
      );
      expect(
        decideRole({ type: 'CreateRole', id: 'role-x', actor: hr, ...body(['users:view']) }, roleState(), now),
      ).toHaveLength(1);
      // Its own role, widened: refused.
      const own = { id: 'role-hr', ...body(['users:view', 'users:manage']) };
      expect(() =>
        decideRole(
          { type: 'UpdateRole', id: 'role-hr', actor: hr, ...body(['users:view', 'users:manage', 'settings:manage']) },
          roleState({ role: own }),
          now,
        ),
      ).toThrow(new ForbiddenError("You can't give a role permissions you don't have yourself: Manage settings"));
      // A role that holds more than the actor: not theirs to edit, even to narrow it.
      const bigger = { id: 'role-big', ...body(['users:view', 'settings:manage']) };
      expect(() =>
        decideRole(
          { type: 'UpdateRole', id: 'role-big', actor: hr, ...body(['users:view']) },
          roleState({ role: bigger }),
          now,
        ),
      ).toThrow(
        new ForbiddenError("You can't edit a role that has permissions you don't have yourself: Manage settings"),
      );
      expect(
        decideRole(
          { type: 'UpdateRole', id: 'role-big', actor: boss, ...body(['users:view']) },
          roleState({ role: bigger }),
          now,
        ),
      ).toHaveLength(1);
    });

    it('never lets an API token create, edit or delete roles', () => {
      const existing = { id: 'role-1', ...body(['inventory:view']) };
      for (const command of [
        { type: 'CreateRole' as const, id: 'role-1', actor: token(), ...body(['inventory:view']) },
        { type: 'UpdateRole' as const, id: 'role-1', actor: token(), ...body(['inventory:view', 'stock:update']) },
        { type: 'DeleteRole' as const, id: 'role-1', actor: token() },
      ]) {
        expect(() =>
          decideRole(command, roleState({ role: command.type === 'CreateRole' ? null : existing }), now),
        ).toThrow(new ForbiddenError('An API token cannot create, edit or delete roles: sign in to do this'));
      }
    });
  });
});

describe('changing the login email', () => {
  const seconds = now.getTime() / 1000;
  const signedIn = (agoSeconds: number) => ({ viaApiToken: false, authTime: seconds - agoSeconds });

  it('asks for verification of a new address after a fresh sign-in, in lower case', () => {
    expect(decideEmailChange(' New@Shop.test ', signedIn(60), user(), now)).toBe('new@shop.test');
    expect(decideEmailChange('new@shop.test', signedIn(RECENT_SIGN_IN_SECONDS), user(), now)).toBe('new@shop.test');
  });

  it('refuses a sign-in older than five minutes (or unknown) with 401, so the client signs in again', () => {
    for (const proof of [
      signedIn(RECENT_SIGN_IN_SECONDS + 1),
      signedIn(3600),
      { viaApiToken: false, authTime: null },
    ]) {
      expect(() => decideEmailChange('new@shop.test', proof, user(), now)).toThrow(
        new UnauthorizedError('Sign in again to change your email or password'),
      );
    }
  });

  it('never lets an API token change the email, however fresh', () => {
    expect(() =>
      decideEmailChange('attacker@evil.test', { viaApiToken: true, authTime: seconds }, user(), now),
    ).toThrow(new ForbiddenError('An API token cannot change your email or password'));
  });

  it('changes nothing for the current address, and refuses guests and unknown accounts', () => {
    expect(decideEmailChange('UMA@shop.test', { viaApiToken: true, authTime: null }, user(), now)).toBeNull();
    expect(() => decideEmailChange('a@b.test', signedIn(1), user({ provider: 'anonymous', email: null }), now)).toThrow(
      'Guest accounts have no email',
    );
    expect(() => decideEmailChange('a@b.test', signedIn(1), null, now)).toThrow(NotFoundError);
  });
});

describe('store settings', () => {
  it('records only what changes', () => {
    expect(
      decideSettings(
        { type: 'ChangeSettings', changes: { storeName: 'My Store', allowGuests: true } },
        DEFAULT_SETTINGS,
        now,
      ),
    ).toEqual([{ type: 'SettingsChanged', data: { changes: { allowGuests: true } } }]);
    expect(
      decideSettings({ type: 'ChangeSettings', changes: { lowStockThreshold: 10 } }, DEFAULT_SETTINGS, now),
    ).toEqual([]);
  });

  it('refuses a blank store name and a malformed email', () => {
    expect(() =>
      decideSettings({ type: 'ChangeSettings', changes: { storeName: ' ' } }, DEFAULT_SETTINGS, now),
    ).toThrow('Store name is required');
    expect(() => decideSettings({ type: 'ChangeSettings', changes: { email: 'shop' } }, DEFAULT_SETTINGS, now)).toThrow(
      'Invalid email address',
    );
  });
});
