// Accounts, roles, settings and profile shapes shared by server and client.
import { DEFAULT_MONEY } from './money-format.js';
import type { Permission } from './permissions.js';
import type { CsvFormat, CsvFormatChoice } from './csv-format.js';
import type { SiteRoles } from './site-roles.js';

export type UserStatus = 'active' | 'disabled';

export interface User {
  id: string;
  name: string;
  email: string | null;
  /** Role id: manager, staff, guest, or a custom role's id. */
  role: string;
  status: UserStatus;
  /** Sign-in provider: password, google.com, anonymous. */
  provider: string;
  createdAt: string;
  avatar: string | null;
  /** A pending request for Store Manager access made at sign-up. */
  managerRequest: 'pending' | null;
  /** Where the role holds: null at every site, else a role per listed site (shared/site-roles.ts); the server always says (absent: every site). */
  siteRoles?: SiteRoles;
}

/** POST /api/session: called by the client after every sign-in. */
export interface SessionBody {
  /** The role chosen on the sign-up form (first sign-in only). */
  requestedRole?: 'staff' | 'manager';
  name?: string;
}

export interface SessionResponse {
  user: User;
  permissions: Permission[];
  /** True when the server changed the role claim: the client must refresh its ID token. */
  refreshToken: boolean;
}

export interface CreateUserBody {
  name: string;
  email: string;
  password: string;
  role: string;
}

export interface Role {
  id: string;
  name: string;
  description: string;
  permissions: Permission[];
  builtIn: boolean;
  userCount: number;
}

export interface RoleBody {
  name: string;
  description: string;
  permissions: Permission[];
}

export interface Settings {
  storeName: string;
  email: string;
  lowStockThreshold: number;
  emailNotifications: boolean;
  pushNotifications: boolean;
  /** Anonymous sign-in (guests, read-only): off until a manager turns it on in Settings. */
  allowGuests: boolean;
  /** The store's currency, an ISO 4217 code (shared/money-format.ts): every price and value is in it. */
  currency: string;
  /** The BCP 47 locale prices and values are written for: '12,50 €' in fr-FR, '€12.50' in en-IE. */
  locale: string;
  /** The CSV format the export buttons preselect (null: none chosen, comma and UTF-8 as ever); managers change it. */
  exportFormat: CsvFormatChoice | null;
  /** The delimiter and encoding of the store's last imported file (null before any): the exports offer it. */
  importFormat: CsvFormat | null;
}

export const DEFAULT_SETTINGS: Settings = {
  storeName: 'My Store',
  email: '',
  lowStockThreshold: 10,
  emailNotifications: true,
  pushNotifications: true,
  // Anyone holding the public web API key can sign in anonymously: a store opts in
  // (migrations/018_guest_access_off.sql turned it off where no manager had chosen).
  allowGuests: false,
  // USD written for en-US: what every store showed before it could choose.
  currency: DEFAULT_MONEY.currency,
  locale: DEFAULT_MONEY.locale,
  exportFormat: null,
  importFormat: null,
};

export interface AlertPreferences {
  browserNotifications: boolean;
}

export interface Profile {
  user: User;
  preferences: AlertPreferences;
}

/** The answer to PUT /api/profile: a new email is not set at once but sent a link to confirm. */
export interface ProfileUpdate extends Profile {
  /** The address a confirmation link went to (the change happens when it is followed); else null. */
  emailVerificationSentTo: string | null;
}

/** Events of the accounts feature: user streams `user-<uid>`, role streams `role-<id>`, the `settings` stream. */
export type UserEvent =
  | {
      type: 'UserRegistered';
      data: {
        uid: string;
        name: string;
        email: string | null;
        role: string;
        provider: string;
        avatar: string | null;
        /** The very first account of the store (at most one ever: a unique index holds it). */
        founder: boolean;
        /** 'self' at sign-in, 'manager' when created on the Users page, 'seed' for demo accounts. */
        registeredBy: 'self' | 'manager' | 'seed';
      };
    }
  | { type: 'UserRoleChanged'; data: { uid: string; role: string; previousRole: string } }
  | { type: 'UserProfileUpdated'; data: { uid: string; name?: string; email?: string } }
  | { type: 'UserDisabled'; data: { uid: string } }
  | { type: 'UserEnabled'; data: { uid: string } }
  | { type: 'ManagerAccessRequested'; data: { uid: string } }
  | { type: 'ManagerAccessApproved'; data: { uid: string } }
  | { type: 'ManagerAccessRejected'; data: { uid: string } }
  | { type: 'AlertPreferencesChanged'; data: { uid: string } & AlertPreferences }
  /** Where the user's role holds from now on: every site (null) or a role per listed site. */
  | { type: 'UserSiteRolesSet'; data: { uid: string; siteRoles: SiteRoles } };

export type RoleEvent =
  | { type: 'RoleCreated'; data: { id: string } & RoleBody }
  | { type: 'RoleUpdated'; data: { id: string } & RoleBody }
  | { type: 'RoleDeleted'; data: { id: string; name: string } };

export type SettingsEvent = { type: 'SettingsChanged'; data: { changes: Partial<Settings> } };

export type AccountsEvent = UserEvent | RoleEvent | SettingsEvent;

/** Stream ids and types of the accounts feature (the realtime feed routes by stream type). */
export const userStream = (uid: string) => ({ id: `user-${uid}`, type: 'user' });
/** Custom role ids are `role-<uuid>`, so a role's id is its stream id. */
export const roleStream = (id: string) => ({ id, type: 'role' });
export const SETTINGS_STREAM = { id: 'settings', type: 'settings' } as const;
