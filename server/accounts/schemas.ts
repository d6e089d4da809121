// JSON schemas of the accounts routes. Bodies are strict: no extra fields, bounded strings;
// responses describe the DTOs of shared/accounts.ts (and feed the OpenAPI document).
import { ALL_PERMISSIONS } from '../../shared/permissions.js';
import { CSV_FORMAT_CHOICES } from '../../shared/csv-format.js';
import { MAX_SITE_ROLES } from '../../shared/site-roles.js';

export const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
} as const;

const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const email = { type: 'string', format: 'email', maxLength: 254 } as const;
const roleId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } as const;

export const NAME_MAX = 100;

/**
 * Firebase uids: letters, digits, _ and - (28 characters in practice). Fastify's router
 * refuses path parameters over 100 characters with 414 before this schema is reached.
 */
export const userIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' } },
} as const;

export const roleIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: roleId },
} as const;

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    role: { type: 'string' },
    status: { type: 'string', enum: ['active', 'disabled'] },
    provider: { type: 'string' },
    createdAt: { type: 'string' },
    avatar: { type: ['string', 'null'] },
    managerRequest: { type: ['string', 'null'] },
    siteRoles: {
      type: ['array', 'null'],
      description: 'null: the role holds at every site; else the role held at each listed site, nothing elsewhere',
      items: { type: 'object', properties: { siteId: { type: 'string' }, role: { type: 'string' } } },
    },
  },
} as const;

/** PUT /users/{id}/site-roles: every site (null), or a role per site (the first is their home site). */
export const siteRolesBody = {
  type: 'object',
  additionalProperties: false,
  required: ['siteRoles'],
  properties: {
    siteRoles: {
      type: ['array', 'null'],
      maxItems: MAX_SITE_ROLES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['siteId', 'role'],
        properties: { siteId: { type: 'string', format: 'uuid' }, role: roleId },
      },
    },
  },
} as const;

const permissionList = {
  type: 'array',
  items: { type: 'string', enum: ALL_PERMISSIONS },
  maxItems: ALL_PERMISSIONS.length,
  uniqueItems: true,
} as const;

export const sessionBody = {
  type: 'object',
  additionalProperties: false,
  properties: { requestedRole: { type: 'string', enum: ['staff', 'manager'] }, name: text(NAME_MAX) },
} as const;

export const sessionResponse = {
  type: 'object',
  properties: {
    user: userSchema,
    permissions: { type: 'array', items: { type: 'string' } },
    refreshToken: { type: 'boolean' },
  },
} as const;

export const createUserBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'password', 'role'],
  properties: { name: text(NAME_MAX, 1), email, password: text(128, 6), role: roleId },
} as const;

export const roleChangeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['role'],
  properties: { role: roleId },
} as const;

export const usersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { q: text(100) },
} as const;

export const roleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string' } },
    builtIn: { type: 'boolean' },
    userCount: { type: 'integer' },
  },
} as const;

export const roleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'permissions'],
  properties: { name: text(50, 1), description: text(200, 1), permissions: permissionList },
} as const;

const settingsProperties = {
  storeName: text(100, 1),
  // Empty means no contact email; the format is checked by the decision with a plain message.
  email: text(254),
  lowStockThreshold: { type: 'integer', minimum: 0, maximum: 1_000_000 },
  emailNotifications: { type: 'boolean' },
  pushNotifications: { type: 'boolean' },
  allowGuests: { type: 'boolean' },
  // Which codes and tags exist is checked by the decision (shared/money-format.ts), with a plain message.
  currency: text(8, 1),
  locale: text(64, 1),
  exportFormat: { type: ['string', 'null'], enum: [...CSV_FORMAT_CHOICES, null] },
} as const;

/** Recorded by an import (server/import/routes.ts), not set through PUT /settings. */
const importFormat = {
  type: ['object', 'null'],
  properties: { delimiter: { type: 'string' }, encoding: { type: 'string' } },
} as const;

export const settingsSchema = { type: 'object', properties: { ...settingsProperties, importFormat } } as const;

export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: settingsProperties,
} as const;

export const preferencesSchema = { type: 'object', properties: { browserNotifications: { type: 'boolean' } } } as const;

export const preferencesBody = {
  type: 'object',
  additionalProperties: false,
  required: ['browserNotifications'],
  properties: { browserNotifications: { type: 'boolean' } },
} as const;

export const profileSchema = {
  type: 'object',
  properties: { user: userSchema, preferences: preferencesSchema },
} as const;

export const profileUpdateSchema = {
  type: 'object',
  properties: {
    user: userSchema,
    preferences: preferencesSchema,
    emailVerificationSentTo: { type: ['string', 'null'] },
  },
} as const;

export const profileBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { name: text(NAME_MAX, 1), email },
} as const;

/** Actions without input (disable, approve...): no body, or an empty object. */
export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;
