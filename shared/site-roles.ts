// Roles per site (issue 25, item 4): a person's role can hold at some sites only ("manager
// of the warehouse, staff at shop 2, nothing elsewhere"). Shared by the server, which
// decides and enforces them (server/auth/site-access.ts), and the Users page's Sites dialog.
//
// `siteRoles: null` is "all sites": the person's role holds at every site, as it did before
// roles per site, and at sites made later. A list gives a role at each listed site and
// nothing at the others. The person's own role stays the most they may do anywhere (a role
// at a site never reaches beyond it) and is what they hold for what belongs to no site
// (the store's settings, users, roles, the catalogue's fields).

/** One site and the role held there. */
export interface SiteRole {
  siteId: string;
  role: string;
}

/** null: every site, with the person's role. */
export type SiteRoles = SiteRole[] | null;

/** PUT /api/users/{id}/site-roles. */
export interface SiteRolesBody {
  siteRoles: SiteRoles;
}

/** Most sites one person can be given one by one (beyond that, "all sites" is the answer). */
export const MAX_SITE_ROLES = 200;
