// Runs custom-role commands under the accounts lock (names stay unique, a role in use is
// not deleted while someone assigns it), appending to the role's own stream.
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { roleStream, type Role, type RoleBody } from '../../../shared/accounts.js';
import { BUILT_IN_ROLES } from '../../../shared/permissions.js';
import type { EventStore } from '../../eventstore/event-store.js';
import type { EventMetadata, Transaction } from '../../eventstore/types.js';
import { NotFoundError } from '../../errors.js';
import { retryOnConflict, withAccountsLock } from '../accounts-lock.js';
import { narrowAuthority, type Authority } from '../authority.js';
import { findUserRow } from '../users/user-queries.js';
import { decideRole, type RoleCommand, type RoleDecisionState } from './decide.js';
import { customRoles, findCustomRole, listRoles, rolePermissions, usersWithRole } from './role-queries.js';

async function loadState(trx: Transaction, id: string): Promise<RoleDecisionState & { version: number }> {
  const role = await findCustomRole(trx, id);
  const names = [...Object.values(BUILT_IN_ROLES), ...(await customRoles(trx))]
    .filter((r) => r.id !== id)
    .map((r) => r.name);
  return { role, otherNames: names, userCount: await usersWithRole(trx, id), version: role?.version ?? 0 };
}

export class RoleService {
  constructor(private readonly store: EventStore) {}

  list(): Promise<Role[]> {
    return listRoles(this.store.db);
  }

  private async one(id: string): Promise<Role> {
    const role = (await this.list()).find((r) => r.id === id);
    if (!role) throw new NotFoundError('Role not found');
    return role;
  }

  private async execute(command: RoleCommand, meta: EventMetadata, log: FastifyBaseLogger): Promise<void> {
    const events = await retryOnConflict(() =>
      withAccountsLock(this.store, async (trx, append) => {
        const state = await loadState(trx, command.id);
        // The actor's permissions as the records say now, not when the request began.
        const actor = narrowAuthority(
          command.actor,
          await findUserRow(trx, command.actor.uid),
          await rolePermissions(trx),
        );
        const decided = decideRole({ ...command, actor }, state, new Date());
        if (decided.length) await append(roleStream(command.id), state.version, decided, meta);
        return decided;
      }),
    );
    if (events.length)
      log.info({ role: command.id, by: meta.actor.uid, events: events.map((e) => e.type) }, 'role changed');
  }

  async create(actor: Authority, body: RoleBody, meta: EventMetadata, log: FastifyBaseLogger): Promise<Role> {
    const id = `role-${randomUUID()}`;
    await this.execute({ type: 'CreateRole', id, actor, ...body }, meta, log);
    return this.one(id);
  }

  async update(
    actor: Authority,
    id: string,
    body: RoleBody,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<Role> {
    await this.execute({ type: 'UpdateRole', id, actor, ...body }, meta, log);
    return this.one(id);
  }

  async delete(actor: Authority, id: string, meta: EventMetadata, log: FastifyBaseLogger): Promise<void> {
    await this.execute({ type: 'DeleteRole', id, actor }, meta, log);
  }
}
