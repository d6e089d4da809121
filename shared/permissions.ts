// The permission model, used by the server to decide and by the client to show or hide.
// Code checks permissions, never role names: a custom role works like a built-in one.

export const PERMISSIONS = [
  { key: 'inventory:view', label: 'View inventory' },
  { key: 'inventory:create', label: 'Add items and categories' },
  { key: 'inventory:manage', label: 'Manage inventory' },
  { key: 'stock:update', label: 'Update stock levels' },
  { key: 'users:view', label: 'View users' },
  { key: 'users:manage', label: 'Manage users' },
  { key: 'reports:view', label: 'View reports' },
  { key: 'settings:manage', label: 'Manage settings' },
  { key: 'records:delete', label: 'Delete records' },
  { key: 'changes:revert', label: 'Revert changes' },
  { key: 'stocktake:run', label: 'Run stocktakes' },
  { key: 'profile:view', label: 'View personal profile' },
] as const;

export type Permission = (typeof PERMISSIONS)[number]['key'];

export const ALL_PERMISSIONS: Permission[] = PERMISSIONS.map((p) => p.key);

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as string[]).includes(value);
}

export function permissionLabel(permission: Permission): string {
  return PERMISSIONS.find((p) => p.key === permission)!.label;
}

export type BuiltInRole = 'manager' | 'staff' | 'guest';

export interface RoleDefinition {
  id: string;
  name: string;
  description: string;
  permissions: Permission[];
  builtIn: boolean;
}

export const BUILT_IN_ROLES: Record<BuiltInRole, RoleDefinition> = {
  manager: {
    id: 'manager',
    name: 'Store Manager',
    description: 'Full access to all features including user management and critical operations',
    permissions: ALL_PERMISSIONS,
    builtIn: true,
  },
  staff: {
    id: 'staff',
    name: 'Staff Member',
    description: 'Day-to-day stock work: view inventory, update stock levels, add items and view reports',
    permissions: ['inventory:view', 'inventory:create', 'stock:update', 'reports:view', 'profile:view'],
    builtIn: true,
  },
  guest: {
    id: 'guest',
    name: 'Guest',
    description: 'Read-only access for anonymous visitors and wall displays',
    permissions: ['inventory:view', 'reports:view'],
    builtIn: true,
  },
};

export function isBuiltInRole(role: string): role is BuiltInRole {
  return role === 'manager' || role === 'staff' || role === 'guest';
}

/** Permissions of a role id; custom roles are looked up in the given list. Unknown roles get none. */
export function permissionsOfRole(role: string, customRoles: readonly RoleDefinition[] = []): Permission[] {
  if (isBuiltInRole(role)) return BUILT_IN_ROLES[role].permissions;
  return customRoles.find((r) => r.id === role)?.permissions ?? [];
}

/** Permissions of which any one will do (a screen several jobs need, such as a stocktake's). */
export type PermissionNeed = Permission | readonly Permission[];

/** Who sees stocktakes (their screens, their routes, their live events): those who count and those who run counts. */
export const SEE_STOCKTAKES: PermissionNeed = ['stock:update', 'stocktake:run'];

export function hasPermission(permissions: readonly string[], need: PermissionNeed): boolean {
  return typeof need === 'string'
    ? permissions.includes(need)
    : need.some((permission) => permissions.includes(permission));
}

/** The words a 403 uses: "You don't have permission to {verb}". */
export const PERMISSION_VERBS: Record<Permission, string> = {
  'inventory:view': 'view inventory',
  'inventory:create': 'add items or categories',
  'inventory:manage': 'manage inventory',
  'stock:update': 'update stock levels',
  'users:view': 'view users',
  'users:manage': 'manage users',
  'reports:view': 'view reports',
  'settings:manage': 'manage settings',
  'records:delete': 'delete records',
  'changes:revert': 'revert changes',
  'stocktake:run': 'run stocktakes',
  'profile:view': 'view your profile',
};

/** Role label shown in the user menu: Manager, Staff or Guest (custom roles show their name). */
export function roleLabel(role: string, customRoles: readonly RoleDefinition[] = []): string {
  if (role === 'manager') return 'Manager';
  if (role === 'staff') return 'Staff';
  if (role === 'guest') return 'Guest';
  return customRoles.find((r) => r.id === role)?.name ?? 'Staff';
}
