// /api/users routes (Users page): thin — a schema, a permission, one call.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CreateUserBody } from '../../../shared/accounts.js';
import type { SiteRolesBody } from '../../../shared/site-roles.js';
import { principalOf, requirePermission } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import { authorityOf } from '../authority.js';
import {
  createUserBody,
  emptyBody,
  errors,
  roleChangeBody,
  siteRolesBody,
  userIdParams,
  userSchema,
  usersQuery,
} from '../schemas.js';
import type { UserAdmin } from './user-admin.js';
import type { UserService } from './user-service.js';

type WithId = { Params: { id: string } };

export const userRoutes: FastifyPluginAsync<{ users: UserService; admin: UserAdmin }> = async (
  app,
  { users, admin },
) => {
  const view = requirePermission('users:view');
  const manage = requirePermission('users:manage');
  const tags = ['users'];

  app.get<{ Querystring: { q?: string } }>(
    '/users',
    {
      onRequest: view,
      schema: {
        summary: 'Accounts, oldest first; q searches name, email and role',
        tags,
        querystring: usersQuery,
        response: { 200: { type: 'array', items: userSchema }, ...errors },
      },
    },
    async (request) => users.list(request.query.q),
  );

  app.post<{ Body: CreateUserBody }>(
    '/users',
    {
      onRequest: manage,
      schema: {
        summary: 'Create a real account with a password and a role',
        tags,
        body: createUserBody,
        response: { 201: userSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await users.create(
        authorityOf(principalOf(request)),
        request.body,
        commandMeta(request),
        request.log,
      );
      return reply.status(201).send(user);
    },
  );

  app.put<WithId & { Body: { role: string } }>(
    '/users/:id/role',
    {
      onRequest: manage,
      schema: {
        summary: "Change an account's role",
        tags,
        params: userIdParams,
        body: roleChangeBody,
        response: { 200: userSchema, ...errors },
      },
    },
    async (request) =>
      admin.changeRole(
        authorityOf(principalOf(request)),
        request.params.id,
        request.body.role,
        commandMeta(request),
        request.log,
      ),
  );

  app.put<WithId & { Body: SiteRolesBody }>(
    '/users/:id/site-roles',
    {
      onRequest: manage,
      schema: {
        summary:
          "Where an account's role holds: null at every site, or a role per listed site (nothing elsewhere; the first is where their stock changes go when they name no location). Nobody gives, at a site, what they don't hold there",
        tags,
        params: userIdParams,
        body: siteRolesBody,
        response: { 200: userSchema, ...errors, 422: errors[400] },
      },
    },
    async (request) =>
      admin.setSiteRoles(
        authorityOf(principalOf(request)),
        request.params.id,
        request.body.siteRoles,
        commandMeta(request),
        request.log,
      ),
  );

  const action = (path: string, summary: string, run: (id: string, request: FastifyRequest) => Promise<unknown>) =>
    app.post<WithId>(
      path,
      {
        onRequest: manage,
        schema: { summary, tags, params: userIdParams, body: emptyBody, response: { 200: userSchema, ...errors } },
      },
      async (request) => run(request.params.id, request),
    );

  action('/users/:id/disable', 'Disable an account: its tokens are refused at once', (id, r) =>
    admin.disable(authorityOf(principalOf(r)), id, commandMeta(r), r.log),
  );
  action('/users/:id/enable', 'Enable a disabled account', (id, r) =>
    admin.enable(authorityOf(principalOf(r)), id, commandMeta(r), r.log),
  );
  action('/users/:id/manager-request/approve', 'Approve a pending Store Manager request', (id, r) =>
    admin.approveManagerRequest(authorityOf(principalOf(r)), id, commandMeta(r), r.log),
  );
  action('/users/:id/manager-request/reject', 'Reject a pending Store Manager request', (id, r) =>
    admin.rejectManagerRequest(id, commandMeta(r), r.log),
  );
};
