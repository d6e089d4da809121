// The accounts feature as server/features.ts sees it: its projections, its routes under
// /api, and the principal resolver that reads roles and status from its users projection.
import type { FastifyPluginAsync } from 'fastify';
import type { Projection } from '../eventstore/types.js';
import type { AccountsContext } from './accounts-context.js';
import { profileRoutes } from './profile/routes.js';
import { ProfileService } from './profile/profile-service.js';
import { roleRoutes } from './roles/routes.js';
import { RoleService } from './roles/role-service.js';
import { rolesProjection } from './roles/projection.js';
import { sessionRoutes } from './session/routes.js';
import { SessionService } from './session/session-service.js';
import { settingsRoutes } from './settings/routes.js';
import { SettingsService } from './settings/settings-service.js';
import { settingsProjection } from './settings/projection.js';
import { UserAdmin } from './users/user-admin.js';
import { usersProjection } from './users/projection.js';
import { userRoutes } from './users/routes.js';
import { UserService } from './users/user-service.js';

export { createAccountsPrincipalResolver } from './principal-resolver.js';

export const accountsProjections: Projection[] = [usersProjection, rolesProjection, settingsProjection];

export const accountsRoutes: FastifyPluginAsync<AccountsContext> = async (app, ctx) => {
  const users = new UserService(ctx);
  await app.register(sessionRoutes, { sessions: new SessionService(users, ctx.store.db) });
  await app.register(userRoutes, { users, admin: new UserAdmin(users) });
  await app.register(roleRoutes, { roles: new RoleService(ctx.store) });
  await app.register(settingsRoutes, { settings: new SettingsService(ctx.store) });
  await app.register(profileRoutes, { profiles: new ProfileService(users) });
};
