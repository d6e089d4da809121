// The rules of roles per site without a database: who may give which sites to whom, what a
// principal may do at a site (site-access.ts), and the refusals that keep a site's manager
// from reaching beyond their sites.
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, type Permission } from '../../shared/permissions.js';
import type { Authority } from '../../server/accounts/authority.js';
import { decideRole } from '../../server/accounts/roles/decide.js';
import {
  decideAccountCreation,
  decideUser,
  type UserDecisionState,
  type UserSnapshot,
} from '../../server/accounts/users/decide.js';
import { grantsOf } from '../../server/accounts/users/site-roles-decide.js';
import type { Principal } from '../../server/auth/principal.js';
import {
  assertMayAtSites,
  homeSite,
  mayAtSite,
  permissionsAtSite,
  visibleSites,
} from '../../server/auth/site-access.js';
import { ConflictError, ForbiddenError, UnprocessableError, ValidationError } from '../../server/errors.js';
import { MAIN_SITE_ID } from '../../shared/places.js';

const now = new Date('2026-01-01T00:00:00Z');
const SHOP = '00000000-0000-4000-8000-00000000000a';
const DEPOT = '00000000-0000-4000-8000-00000000000b';
const OLD = '00000000-0000-4000-8000-00000000000c';
const ROLES: Record<string, readonly Permission[]> = {
  manager: BUILT_IN_ROLES.manager.permissions,
  staff: BUILT_IN_ROLES.staff.permissions,
  guest: BUILT_IN_ROLES.guest.permissions,
  'role-viewer': ['inventory:view'],
};
const SITES: Record<string, { name: string; archived: boolean }> = {
  [SHOP]: { name: 'Shop 2', archived: false },
  [DEPOT]: { name: 'Depot', archived: false },
  [OLD]: { name: 'Old shop', archived: true },
};

const boss: Authority = { uid: 'boss', permissions: ALL_PERMISSIONS, viaApiToken: false, siteGrants: null };
/** A Store Manager whose role holds at the Depot only. */
const depotBoss: Authority = {
  ...boss,
  uid: 'depot-boss',
  siteGrants: grantsOf([{ siteId: DEPOT, role: 'manager' }], 'manager', ROLES),
};

const user = (fields: Partial<UserSnapshot> = {}): UserSnapshot => ({
  uid: 'u1',
  name: 'Uma',
  email: 'uma@shop.test',
  role: 'staff',
  status: 'active',
  provider: 'password',
  managerRequest: null,
  browserNotifications: false,
  siteRoles: null,
  ...fields,
});

const state = (fields: Partial<UserDecisionState> = {}): UserDecisionState => ({
  user: user(),
  storeHasUsers: true,
  activeManagerIds: ['boss', 'depot-boss'],
  allSitesManagerIds: ['boss'],
  roles: ROLES,
  sites: SITES,
  ...fields,
});

const set = (siteRoles: Array<{ siteId: string; role: string }> | null, actor: Authority = boss) =>
  ({ type: 'SetSiteRoles', siteRoles, actor }) as const;

describe('giving roles per site', () => {
  it('records a role per site, in the order given, and every site as null', () => {
    expect(
      decideUser(
        set([
          { siteId: DEPOT, role: 'staff' },
          { siteId: SHOP, role: 'role-viewer' },
        ]),
        state(),
        now,
      ),
    ).toEqual([
      {
        type: 'UserSiteRolesSet',
        data: {
          uid: 'u1',
          siteRoles: [
            { siteId: DEPOT, role: 'staff' },
            { siteId: SHOP, role: 'role-viewer' },
          ],
        },
      },
    ]);
    const limited = state({ user: user({ siteRoles: [{ siteId: SHOP, role: 'staff' }] }) });
    expect(decideUser(set(null), limited, now)).toEqual([
      { type: 'UserSiteRolesSet', data: { uid: 'u1', siteRoles: null } },
    ]);
  });

  it('records nothing when nothing changes', () => {
    expect(decideUser(set(null), state(), now)).toEqual([]);
    const limited = state({ user: user({ siteRoles: [{ siteId: SHOP, role: 'staff' }] }) });
    expect(decideUser(set([{ siteId: SHOP.toUpperCase(), role: 'staff' }]), limited, now)).toEqual([]);
  });

  it("refuses a site twice, an unknown or newly archived site, guest or unknown roles, and more than the person's role", () => {
    const twice = () =>
      decideUser(
        set([
          { siteId: SHOP, role: 'staff' },
          { siteId: SHOP, role: 'staff' },
        ]),
        state(),
        now,
      );
    expect(twice).toThrow(ValidationError);
    expect(() =>
      decideUser(set([{ siteId: '00000000-0000-4000-8000-0000000000ff', role: 'staff' }]), state(), now),
    ).toThrow(UnprocessableError);
    expect(() => decideUser(set([{ siteId: OLD, role: 'staff' }]), state(), now)).toThrow('Old shop is archived');
    // Already given there: keeping it while changing another is fine.
    const hadOld = state({ user: user({ siteRoles: [{ siteId: OLD, role: 'staff' }] }) });
    expect(
      decideUser(
        set([
          { siteId: OLD, role: 'staff' },
          { siteId: SHOP, role: 'staff' },
        ]),
        hadOld,
        now,
      ),
    ).toHaveLength(1);
    expect(() => decideUser(set([{ siteId: SHOP, role: 'guest' }]), state(), now)).toThrow(ValidationError);
    expect(() => decideUser(set([{ siteId: SHOP, role: 'role-nope' }]), state(), now)).toThrow(ValidationError);
    expect(() => decideUser(set([{ siteId: SHOP, role: 'manager' }]), state(), now)).toThrow(
      /can't give Uma more than their own role: Manage inventory/,
    );
  });

  it('refuses API tokens, guests and oneself', () => {
    expect(() => decideUser(set(null, { ...boss, viaApiToken: true }), state(), now)).toThrow(ForbiddenError);
    expect(() => decideUser(set(null), state({ user: user({ provider: 'anonymous', role: 'guest' }) }), now)).toThrow(
      ConflictError,
    );
    expect(() => decideUser(set(null, { ...boss, uid: 'u1' }), state(), now)).toThrow(
      'You cannot change your own sites',
    );
  });

  it('keeps a manager of one site within it', () => {
    // Someone who works everywhere: neither narrowed nor touched by a manager of one site.
    expect(() => decideUser(set([{ siteId: DEPOT, role: 'staff' }], depotBoss), state(), now)).toThrow(
      /they work at every site and you don't/,
    );
    const atDepot = state({ user: user({ siteRoles: [{ siteId: DEPOT, role: 'staff' }] }) });
    expect(() => decideUser(set(null, depotBoss), atDepot, now)).toThrow("You can't give access to every site");
    expect(() => decideUser(set([{ siteId: SHOP, role: 'staff' }], depotBoss), atDepot, now)).toThrow(
      /at Shop 2 with permissions you don't have there yourself/,
    );
    // Within the Depot, they do manage.
    expect(decideUser(set([{ siteId: DEPOT, role: 'role-viewer' }], depotBoss), atDepot, now)).toHaveLength(1);
    // Someone at Shop 2 is beyond them, even to take Shop 2 away.
    const atShop = state({ user: user({ siteRoles: [{ siteId: SHOP, role: 'staff' }] }) });
    expect(() => decideUser(set([{ siteId: DEPOT, role: 'staff' }], depotBoss), atShop, now)).toThrow(/at Shop 2/);
  });

  it('keeps one manager who works at every site', () => {
    const lastOne = state({ user: user({ uid: 'boss2', role: 'manager' }), allSitesManagerIds: ['boss2'] });
    expect(() => decideUser(set([{ siteId: SHOP, role: 'manager' }]), lastOne, now)).toThrow(
      'The last manager who works at every site must keep every site',
    );
    const another = state({ user: user({ uid: 'boss2', role: 'manager' }), allSitesManagerIds: ['boss', 'boss2'] });
    expect(decideUser(set([{ siteId: SHOP, role: 'manager' }]), another, now)).toHaveLength(1);
    const demote = { type: 'ChangeRole', role: 'staff', actor: boss } as const;
    expect(() => decideUser(demote, lastOne, now)).toThrow(
      'The last manager who works at every site cannot be demoted',
    );
  });

  it("keeps the other account rules within the actor's sites", () => {
    const atShop = state({ user: user({ siteRoles: [{ siteId: SHOP, role: 'staff' }] }) });
    expect(() => decideUser({ type: 'Disable', actor: depotBoss }, atShop, now)).toThrow(/at Shop 2/);
    expect(() => decideUser({ type: 'ChangeRole', role: 'role-viewer', actor: depotBoss }, state(), now)).toThrow(
      /every site/,
    );
    expect(() => decideAccountCreation(depotBoss, 'staff', ROLES)).toThrow(ForbiddenError);
    const edit = {
      type: 'UpdateRole' as const,
      id: 'role-viewer',
      actor: depotBoss,
      name: 'Viewer',
      description: 'Looks',
      permissions: ['inventory:view'] as Permission[],
    };
    const roleState = {
      role: {
        id: 'role-viewer',
        name: 'Viewer',
        description: 'Looks',
        permissions: ['inventory:view'] as Permission[],
      },
      otherNames: [],
      userCount: 1,
    };
    expect(() => decideRole(edit, roleState, now)).toThrow(ForbiddenError);
  });
});

describe('what a principal may do at a site', () => {
  const principal = (siteGrants: Principal['siteGrants'], permissions: Permission[] = ALL_PERMISSIONS): Principal => ({
    uid: 'p',
    email: null,
    name: 'P',
    provider: 'password',
    role: 'manager',
    permissions,
    token: {} as Principal['token'],
    siteGrants,
  });

  it('holds its role everywhere without grants', () => {
    const everywhere = principal(null);
    expect(mayAtSite(everywhere, 'stock:update', SHOP)).toBe(true);
    expect(visibleSites(everywhere)).toBe('all');
    expect(homeSite(everywhere)).toBe(MAIN_SITE_ID);
  });

  it("holds the role given at a site within its own permissions (an API token's scopes too), and nothing elsewhere", () => {
    const grants = grantsOf(
      [
        { siteId: SHOP, role: 'role-viewer' },
        { siteId: DEPOT, role: 'staff' },
      ],
      'manager',
      ROLES,
    );
    const p = principal(grants);
    expect(mayAtSite(p, 'stock:update', DEPOT)).toBe(true);
    expect(mayAtSite(p, 'stock:update', SHOP)).toBe(false);
    expect(mayAtSite(p, 'inventory:view', SHOP)).toBe(true);
    expect(mayAtSite(p, 'inventory:view', MAIN_SITE_ID)).toBe(false);
    expect(visibleSites(p)).toEqual([SHOP, DEPOT]);
    // The first site given where it may update stock.
    expect(homeSite(p)).toBe(DEPOT);
    // A token with View inventory only updates nothing, even at the Depot.
    const token = principal(grants, ['inventory:view']);
    expect(permissionsAtSite(token, DEPOT)).toEqual(['inventory:view']);
    expect(() => assertMayAtSites(token, 'stock:update', [DEPOT], () => 'Depot')).toThrow(
      "You don't have permission to update stock levels at Depot",
    );
    expect(() =>
      assertMayAtSites(p, ['stock:update', 'stocktake:run'], [DEPOT, SHOP], (id) => SITES[id]!.name),
    ).toThrow("You don't have permission to update stock levels or run stocktakes at Shop 2");
  });
});
