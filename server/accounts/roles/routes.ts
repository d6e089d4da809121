// /api/roles routes (Role Management page): thin — a schema, a permission, one call.
import type { FastifyPluginAsync } from 'fastify';
import type { RoleBody } from '../../../shared/accounts.js';
import { principalOf, requirePermission } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import { authorityOf } from '../authority.js';
import { errors, roleBody, roleIdParams, roleSchema } from '../schemas.js';
import type { RoleService } from './role-service.js';

type WithId = { Params: { id: string } };

export const roleRoutes: FastifyPluginAsync<{ roles: RoleService }> = async (app, { roles }) => {
  const manage = requirePermission('users:manage');
  const tags = ['roles'];

  // Every signed-in screen may need role names and permissions (the user menu's label).
  app.get(
    '/roles',
    {
      schema: {
        summary: 'Built-in and custom roles with their permissions and user counts',
        tags,
        response: { 200: { type: 'array', items: roleSchema }, ...errors },
      },
    },
    async () => roles.list(),
  );

  app.post<{ Body: RoleBody }>(
    '/roles',
    {
      onRequest: manage,
      schema: { summary: 'Create a custom role', tags, body: roleBody, response: { 201: roleSchema, ...errors } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await roles.create(authorityOf(principalOf(request)), request.body, commandMeta(request), request.log)),
  );

  app.put<WithId & { Body: RoleBody }>(
    '/roles/:id',
    {
      onRequest: manage,
      schema: {
        summary: 'Edit a custom role (built-in roles cannot change)',
        tags,
        params: roleIdParams,
        body: roleBody,
        response: { 200: roleSchema, ...errors },
      },
    },
    async (request) =>
      roles.update(
        authorityOf(principalOf(request)),
        request.params.id,
        request.body,
        commandMeta(request),
        request.log,
      ),
  );

  app.delete<WithId>(
    '/roles/:id',
    {
      onRequest: manage,
      schema: {
        summary: 'Delete a custom role no account holds',
        tags,
        params: roleIdParams,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await roles.delete(authorityOf(principalOf(request)), request.params.id, commandMeta(request), request.log);
      return reply.status(204).send();
    },
  );
};
