// The accounts decisions without a database: given a state, when a command, then events
// (or a typed error).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { decideRole, type RoleDecisionState } from '../../server/accounts/roles/decide.js';
import { decideSettings } from '../../server/accounts/settings/decide.js';
import { decideUser, type UserDecisionState, type UserSnapshot } from '../../server/accounts/users/decide.js';
import { ConflictError, NotFoundError, ValidationError } from '../../server/errors.js';

const now = new Date('2026-01-01T00:00:00Z');
const ROLES = ['manager', 'staff', 'guest', 'role-auditor'];

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
  roleIds: ROLES,
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
      data: { uid: 'u1', name: 'uma', email: 'uma@shop.test', role: 'manager', provider: 'password', avatar: null, founder: true, registeredBy: 'self' },
    });
  });

  it('makes a later sign-up asking for manager staff with a pending request', () => {
    const events = decideUser(register({ requestedRole: 'manager', name: ' Uma  ' }), state(), now);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'ManagerAccessRequested']);
    expect(events[0]!.data).toMatchObject({ role: 'staff', founder: false, name: 'Uma' });
  });

  it('makes anonymous accounts guests, even in an empty store', () => {
    const events = decideUser(register({ provider: 'anonymous', email: null, requestedRole: 'manager' }), state({ storeHasUsers: false }), now);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ role: 'guest', founder: false, name: 'Guest' });
  });

  it('registers nothing for an account already known', () => {
    expect(decideUser(register(), state({ user: user() }), now)).toEqual([]);
  });

  it('gives a manager-created account the chosen role, which must exist and not be guest', () => {
    const events = decideUser(register({ registeredBy: 'manager', requestedRole: 'role-auditor' }), state(), now);
    expect(events[0]!.data).toMatchObject({ role: 'role-auditor', registeredBy: 'manager' });
    expect(() => decideUser(register({ registeredBy: 'manager', requestedRole: 'role-gone' }), state(), now)).toThrow(ValidationError);
    expect(() => decideUser(register({ registeredBy: 'manager', requestedRole: 'guest' }), state(), now)).toThrow(ValidationError);
  });
});

describe('changing roles and status', () => {
  it('records a role change with the previous role', () => {
    expect(decideUser({ type: 'ChangeRole', role: 'manager', actorUid: 'boss' }, state({ user: user() }), now)).toEqual([
      { type: 'UserRoleChanged', data: { uid: 'u1', role: 'manager', previousRole: 'staff' } },
    ]);
  });

  it('refuses to demote or disable the last active manager', () => {
    const last = state({ user: user({ uid: 'boss', role: 'manager' }), activeManagerIds: ['boss'] });
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actorUid: 'other' }, last, now)).toThrow('The last active manager cannot be demoted');
    expect(() => decideUser({ type: 'Disable', actorUid: 'other' }, last, now)).toThrow('The last active manager cannot be disabled');
    const two = { ...last, activeManagerIds: ['boss', 'deputy'] };
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actorUid: 'deputy' }, two, now)).toHaveLength(1);
  });

  it('lets a disabled manager be demoted even when one other manager is left', () => {
    const s = state({ user: user({ uid: 'old', role: 'manager', status: 'disabled' }), activeManagerIds: ['boss'] });
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actorUid: 'boss' }, s, now)).toHaveLength(1);
  });

  it('refuses unknown roles, guest, and roles for anonymous accounts', () => {
    expect(() => decideUser({ type: 'ChangeRole', role: 'role-gone', actorUid: 'boss' }, state({ user: user() }), now)).toThrow(ValidationError);
    expect(() => decideUser({ type: 'ChangeRole', role: 'guest', actorUid: 'boss' }, state({ user: user() }), now)).toThrow(ValidationError);
    const anon = state({ user: user({ provider: 'anonymous', role: 'guest' }) });
    expect(() => decideUser({ type: 'ChangeRole', role: 'staff', actorUid: 'boss' }, anon, now)).toThrow(ConflictError);
  });

  it('refuses to act on a missing account and to disable oneself', () => {
    expect(() => decideUser({ type: 'Enable' }, state(), now)).toThrow(NotFoundError);
    expect(() => decideUser({ type: 'Disable', actorUid: 'u1' }, state({ user: user() }), now)).toThrow('You cannot disable your own account');
  });

  it('writes nothing when nothing changes', () => {
    expect(decideUser({ type: 'ChangeRole', role: 'staff', actorUid: 'boss' }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'Enable' }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'Disable', actorUid: 'boss' }, state({ user: user({ status: 'disabled' }) }), now)).toEqual([]);
    expect(decideUser({ type: 'UpdateProfile', name: 'Uma', email: 'UMA@shop.test' }, state({ user: user() }), now)).toEqual([]);
    expect(decideUser({ type: 'ChangePreferences', browserNotifications: false }, state({ user: user() }), now)).toEqual([]);
  });
});

describe('manager requests', () => {
  it('approves a pending request into the manager role', () => {
    const events = decideUser({ type: 'ApproveManagerRequest' }, state({ user: user({ managerRequest: 'pending' }) }), now);
    expect(events.map((e) => e.type)).toEqual(['ManagerAccessApproved', 'UserRoleChanged']);
    expect(events[1]!.data).toMatchObject({ role: 'manager', previousRole: 'staff' });
  });

  it('refuses to answer when nothing is pending', () => {
    expect(() => decideUser({ type: 'ApproveManagerRequest' }, state({ user: user() }), now)).toThrow('No pending manager request');
    expect(() => decideUser({ type: 'RejectManagerRequest' }, state({ user: user() }), now)).toThrow('No pending manager request');
  });
});

describe('profile', () => {
  it('records only changed fields, trimmed, emails in lower case', () => {
    expect(decideUser({ type: 'UpdateProfile', name: ' Uma Q ', email: 'New@Shop.test' }, state({ user: user() }), now)).toEqual([
      { type: 'UserProfileUpdated', data: { uid: 'u1', name: 'Uma Q', email: 'new@shop.test' } },
    ]);
  });

  it('refuses a blank name', () => {
    expect(() => decideUser({ type: 'UpdateProfile', name: '  ' }, state({ user: user() }), now)).toThrow('Name is required');
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
    expect(decideRole({ type: 'CreateRole', id: 'role-1', ...body, name: ' Auditor ' }, roleState(), now)).toEqual([
      { type: 'RoleCreated', data: { id: 'role-1', ...body } },
    ]);
  });

  it('keeps names unique regardless of case', () => {
    expect(() => decideRole({ type: 'CreateRole', id: 'role-1', ...body, name: 'store manager' }, roleState(), now)).toThrow(ConflictError);
  });

  it('refuses to edit or delete built-in roles', () => {
    expect(() => decideRole({ type: 'UpdateRole', id: 'staff', ...body }, roleState(), now)).toThrow('Built-in roles cannot be changed');
    expect(() => decideRole({ type: 'DeleteRole', id: 'manager' }, roleState(), now)).toThrow('Built-in roles cannot be changed');
  });

  it('refuses to delete a role in use', () => {
    const existing = { id: 'role-1', ...body };
    expect(() => decideRole({ type: 'DeleteRole', id: 'role-1' }, roleState({ role: existing, userCount: 2 }), now)).toThrow('Role is in use');
    expect(decideRole({ type: 'DeleteRole', id: 'role-1' }, roleState({ role: existing }), now)).toEqual([
      { type: 'RoleDeleted', data: { id: 'role-1', name: 'Auditor' } },
    ]);
  });

  it('writes nothing for an unchanged edit', () => {
    expect(decideRole({ type: 'UpdateRole', id: 'role-1', ...body }, roleState({ role: { id: 'role-1', ...body } }), now)).toEqual([]);
  });
});

describe('store settings', () => {
  it('records only what changes', () => {
    expect(decideSettings({ type: 'ChangeSettings', changes: { storeName: 'My Store', allowGuests: true } }, DEFAULT_SETTINGS, now)).toEqual([
      { type: 'SettingsChanged', data: { changes: { allowGuests: true } } },
    ]);
    expect(decideSettings({ type: 'ChangeSettings', changes: { lowStockThreshold: 10 } }, DEFAULT_SETTINGS, now)).toEqual([]);
  });

  it('refuses a blank store name and a malformed email', () => {
    expect(() => decideSettings({ type: 'ChangeSettings', changes: { storeName: ' ' } }, DEFAULT_SETTINGS, now)).toThrow('Store name is required');
    expect(() => decideSettings({ type: 'ChangeSettings', changes: { email: 'shop' } }, DEFAULT_SETTINGS, now)).toThrow('Invalid email address');
  });
});
