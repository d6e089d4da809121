// Decisions about custom roles: pure `(command, state, now) => events`. Built-in roles
// (manager, staff, guest) live in shared/permissions.ts and never change. Whoever edits
// roles can only hand out what they hold themselves, and never with an API token.
import type { RoleBody, RoleEvent } from '../../../shared/accounts.js';
import { isBuiltInRole, type Permission } from '../../../shared/permissions.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { refuseApiToken, requireEverySite, requireWithinAuthority, type Authority } from '../authority.js';

export interface RoleSnapshot {
  id: string;
  name: string;
  description: string;
  permissions: Permission[];
}

export interface RoleDecisionState {
  /** The custom role the command is about; null when there is none with that id. */
  role: RoleSnapshot | null;
  /** Names of every other role (built-in included), to keep names unique. */
  otherNames: readonly string[];
  /** Accounts holding the role. */
  userCount: number;
}

export type RoleCommand =
  | ({ type: 'CreateRole'; id: string; actor: Authority } & RoleBody)
  | ({ type: 'UpdateRole'; id: string; actor: Authority } & RoleBody)
  | { type: 'DeleteRole'; id: string; actor: Authority };

const TOKENS_CANNOT = 'create, edit or delete roles';

function cleanBody(command: RoleBody, state: RoleDecisionState): RoleBody {
  const name = command.name.trim();
  const description = command.description.trim();
  if (!name) throw new ValidationError('Role name is required');
  if (!description) throw new ValidationError('Description is required');
  if (command.permissions.length === 0) throw new ValidationError('Choose at least one permission');
  if (state.otherNames.some((n) => n.toLowerCase() === name.toLowerCase())) {
    throw new ConflictError(`A role named "${name}" already exists`);
  }
  return { name, description, permissions: [...new Set(command.permissions)] };
}

function refuseBuiltIn(id: string): void {
  if (isBuiltInRole(id)) throw new ConflictError('Built-in roles cannot be changed');
}

function sameRole(a: RoleSnapshot, b: RoleBody): boolean {
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.permissions.length === b.permissions.length &&
    a.permissions.every((p) => b.permissions.includes(p))
  );
}

export function decideRole(command: RoleCommand, state: RoleDecisionState, _now: Date): RoleEvent[] {
  switch (command.type) {
    case 'CreateRole': {
      refuseApiToken(command.actor, TOKENS_CANNOT);
      if (state.role) throw new ConflictError('Role already exists');
      const body = cleanBody(command, state);
      requireWithinAuthority(
        command.actor,
        body.permissions,
        "You can't create a role with permissions you don't have yourself",
      );
      return [{ type: 'RoleCreated', data: { id: command.id, ...body } }];
    }
    case 'UpdateRole': {
      refuseApiToken(command.actor, TOKENS_CANNOT);
      refuseBuiltIn(command.id);
      if (!state.role) throw new NotFoundError('Role not found');
      // Editing a role changes what everyone holding it may do, at every site they work at.
      requireEverySite(command.actor, "You can't edit a role unless you work at every site: its holders may");
      // Not for those who hold less.
      requireWithinAuthority(
        command.actor,
        state.role.permissions,
        "You can't edit a role that has permissions you don't have yourself",
      );
      const body = cleanBody(command, state);
      requireWithinAuthority(
        command.actor,
        body.permissions,
        "You can't give a role permissions you don't have yourself",
      );
      if (sameRole(state.role, body)) return [];
      return [{ type: 'RoleUpdated', data: { id: command.id, ...body } }];
    }
    case 'DeleteRole': {
      refuseApiToken(command.actor, TOKENS_CANNOT);
      refuseBuiltIn(command.id);
      if (!state.role) throw new NotFoundError('Role not found');
      if (state.userCount > 0) throw new ConflictError('Role is in use');
      return [{ type: 'RoleDeleted', data: { id: command.id, name: state.role.name } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}
