// The Sites dialog's rules (Users page, roles per site): what a card says, which roles a site
// offers, and what is sent: every site, or the sites given a role in the order that keeps the
// user's first site first, without losing sites the manager cannot see.
import { describe, expect, it } from 'vitest';
import type { Role, User } from '../../shared/accounts.js';
import type { Site } from '../../shared/sites.js';
import { offeredSites, siteRolesOf } from '../../client/features/users/site-roles.machine.js';
import { siteRoleChoices, siteRolesText } from '../../client/features/users/user-list.js';

const role = (id: string, name: string, permissions: Role['permissions']): Role => ({
  id,
  name,
  description: '',
  permissions,
  builtIn: id === 'manager' || id === 'staff' || id === 'guest',
  userCount: 0,
});
const ROLES = [
  role('manager', 'Store Manager', ['inventory:view', 'stock:update', 'users:manage', 'settings:manage']),
  role('staff', 'Staff Member', ['inventory:view', 'stock:update']),
  role('guest', 'Guest', ['inventory:view']),
  role('counter', 'Counter', ['inventory:view']),
];
const site = (id: string, name: string, archived = false) =>
  ({ id, name, code: name.slice(0, 3).toUpperCase(), archivedAt: archived ? '2026-01-01T00:00:00Z' : null }) as Site;
const MAIN = site('s-main', 'Main store');
const WH = site('s-wh', 'Warehouse');
const OLD = site('s-old', 'Old depot', true);
const user = (siteRoles: User['siteRoles'], userRole = 'staff'): User =>
  ({ id: 'u1', name: 'Walt', email: 'w@x', role: userRole, status: 'active', siteRoles }) as User;

describe('roles per site on the Users page', () => {
  it("says where a user's role holds, counting sites the manager cannot see", () => {
    expect(siteRolesText(null, [MAIN, WH], ROLES)).toBe('All sites');
    expect(siteRolesText([], [MAIN, WH], ROLES)).toBe('No site');
    expect(
      siteRolesText(
        [
          { siteId: 's-wh', role: 'manager' },
          { siteId: 's-far', role: 'staff' },
        ],
        [MAIN, WH],
        ROLES,
      ),
    ).toBe('Warehouse (Store Manager), 1 other site');
  });

  it("offers at a site the roles within the user's own, never Guest", () => {
    expect(siteRoleChoices(ROLES, 'staff').map((r) => r.id)).toEqual(['staff', 'counter']);
    expect(siteRoleChoices(ROLES, 'manager').map((r) => r.id)).toEqual(['manager', 'staff', 'counter']);
  });

  it('lists open sites and archived ones the user still has', () => {
    expect(offeredSites([MAIN, WH, OLD], user(null))).toEqual([MAIN, WH]);
    expect(offeredSites([MAIN, WH, OLD], user([{ siteId: 's-old', role: 'staff' }]))).toEqual([MAIN, WH, OLD]);
  });

  it("sends every site as null, else the user's sites in their order first, new ones after", () => {
    const walt = user([
      { siteId: 's-wh', role: 'staff' },
      { siteId: 's-far', role: 'staff' },
    ]);
    expect(siteRolesOf({ user: walt, sites: [MAIN, WH], mode: 'all', picks: {} })).toBeNull();
    expect(
      siteRolesOf({ user: walt, sites: [MAIN, WH], mode: 'some', picks: { 's-main': 'counter', 's-wh': 'staff' } }),
    ).toEqual([
      { siteId: 's-wh', role: 'staff' },
      // A site the manager cannot see keeps what it had.
      { siteId: 's-far', role: 'staff' },
      { siteId: 's-main', role: 'counter' },
    ]);
    // No access at a site the user had: taken away.
    expect(siteRolesOf({ user: walt, sites: [MAIN, WH], mode: 'some', picks: { 's-wh': '' } })).toEqual([
      { siteId: 's-far', role: 'staff' },
    ]);
  });
});
