// The rules of the users, roles, settings and profile screens, checked before the server is
// asked: searching users and roles, the Add User, role and password forms, sending only
// changed fields, and noticing when the server's grant differs from the session's.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Role, type Settings, type User } from '../../shared/accounts.js';
import { checkPasswordForm, passwordErrorMessage } from '../../client/features/profile/change-password.machine.js';
import { profileChanges } from '../../client/features/profile/profile.machine.js';
import { checkRole } from '../../client/features/roles/role-form.machine.js';
import { filterRoles } from '../../client/features/roles/roles.machine.js';
import { changedFields, isDirty } from '../../client/features/settings/settings.machine.js';
import { checkNewUser } from '../../client/features/users/add-user.machine.js';
import { filterUsers, pendingRequests, roleName } from '../../client/features/users/user-list.js';
import { sameGrant } from '../../client/app/session-grant.js';

describe('users, roles, settings and profile rules', () => {
  const roles = [
    {
      id: 'manager',
      name: 'Store Manager',
      description: 'All',
      permissions: ['users:manage'],
      builtIn: true,
      userCount: 1,
    },
    {
      id: 'role-x',
      name: 'Shelf Viewer',
      description: 'Looks only',
      permissions: ['inventory:view'],
      builtIn: false,
      userCount: 0,
    },
  ] as Role[];
  const user = (id: string, name: string, role: string, extra: Partial<User> = {}): User => ({
    id,
    name,
    email: `${id}@x.test`,
    role,
    status: 'active',
    provider: 'password',
    createdAt: '2030-01-01T00:00:00.000Z',
    avatar: null,
    managerRequest: null,
    ...extra,
  });
  const users = [
    user('u1', 'Mia', 'manager'),
    user('u2', 'Sam', 'role-x'),
    user('u3', 'Rita', 'staff', { managerRequest: 'pending' }),
  ];

  it('searches users by name, email or role name, and finds pending requests', () => {
    expect(filterUsers(users, roles, 'shelf').map((u) => u.name)).toEqual(['Sam']);
    expect(filterUsers(users, roles, 'STORE manager').map((u) => u.name)).toEqual(['Mia']);
    expect(filterUsers(users, roles, 'u3@x').map((u) => u.name)).toEqual(['Rita']);
    expect(pendingRequests(users).map((u) => u.name)).toEqual(['Rita']);
    expect(roleName('staff', roles)).toBe('Staff Member');
    expect(
      filterRoles(roles, 'view inventory', (p) => (p === 'inventory:view' ? 'View inventory' : p)).map((r) => r.name),
    ).toEqual(['Shelf Viewer']);
  });

  it('checks the Add User and role forms before asking the server', () => {
    const body = { name: 'Nina', email: 'nina@x.test', password: 'secret1', role: 'staff' };
    expect(checkNewUser(body)).toBeNull();
    expect(checkNewUser({ ...body, name: ' ' })).toBe('Please fill in all required fields');
    expect(checkNewUser({ ...body, email: 'nina' })).toBe('Please enter a valid email address');
    expect(checkNewUser({ ...body, password: '123' })).toBe('The password needs at least 6 characters');
    expect(checkRole({ name: 'X', description: '', permissions: ['inventory:view'] })).toBe(
      'Role name and description are required',
    );
    expect(checkRole({ name: 'X', description: 'Y', permissions: [] })).toBe('Choose at least one permission');
  });

  it('sends only changed settings and profile fields', () => {
    const saved: Settings = {
      ...DEFAULT_SETTINGS,
      storeName: 'A',
      email: '',
      lowStockThreshold: 10,
      emailNotifications: true,
      pushNotifications: true,
      allowGuests: true,
      currency: 'USD',
      locale: 'en-US',
    };
    expect(changedFields(saved, { ...saved, storeName: 'B', allowGuests: false })).toEqual({
      storeName: 'B',
      allowGuests: false,
    });
    expect(isDirty({ saved, draft: saved })).toBe(false);
    const profile = { user: user('u1', 'Mia', 'manager'), preferences: { browserNotifications: false } };
    expect(profileChanges(profile, ' Mia ', 'U1@x.test')).toEqual({ changes: {} });
    expect(profileChanges(profile, 'Mia Rose', 'mia@x.test')).toEqual({
      changes: { name: 'Mia Rose', email: 'mia@x.test' },
    });
    expect(profileChanges(profile, '', 'u1@x.test')).toEqual({ error: 'Full Name is required' });
    expect(profileChanges(profile, 'Mia', 'nope')).toEqual({ error: 'Invalid email address' });
  });

  it('checks the password form and words Firebase refusals', () => {
    expect(checkPasswordForm({ current: 'old123', next: 'new123', confirm: 'new124' })).toBe('Passwords do not match');
    expect(checkPasswordForm({ current: 'old123', next: 'abc', confirm: 'abc' })).toBe(
      'Password is too weak. Please use a stronger password',
    );
    expect(checkPasswordForm({ current: '', next: 'new123', confirm: 'new123' })).toBe(
      'Please fill in all password fields',
    );
    expect(checkPasswordForm({ current: 'old123', next: 'new123', confirm: 'new123' })).toBeNull();
    expect(passwordErrorMessage({ code: 'auth/invalid-credential' })).toBe('Current password is incorrect');
    expect(passwordErrorMessage({ code: 'auth/too-many-requests' })).toBe(
      'Too many failed login attempts. Please try again later',
    );
    expect(passwordErrorMessage(new Error('boom'))).toBe('Failed to change password');
  });

  it("notices when the server's grant differs from the session's", () => {
    expect(sameGrant({ role: 'staff', permissions: ['a', 'b'] }, { role: 'staff', permissions: ['b', 'a'] })).toBe(
      true,
    );
    expect(sameGrant({ role: 'manager', permissions: ['a'] }, { role: 'staff', permissions: ['a'] })).toBe(false);
    expect(sameGrant({ role: 'role-x', permissions: ['a', 'c'] }, { role: 'role-x', permissions: ['a'] })).toBe(false);
  });
});
