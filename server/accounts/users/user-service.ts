// Runs account commands: loads the decision state, calls the pure decision, appends to the
// user's stream with its expected version, then keeps Firebase (claims, disabled flag) in
// step. The users projection is the truth the server acts on; Firebase follows it.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { userStream, type CreateUserBody, type User, type UserEvent } from '../../../shared/accounts.js';
import { NotFoundError } from '../../errors.js';
import type { EventMetadata, Transaction } from '../../eventstore/types.js';
import type { Principal } from '../../auth/principal.js';
import type { AccountsContext } from '../accounts-context.js';
import { retryOnConflict, violates, withAccountsLock, type Append } from '../accounts-lock.js';
import { FirebaseAccounts, isUserNotFound } from '../firebase-accounts.js';
import { rolePermissions } from '../roles/role-queries.js';
import { narrowAuthority, type Authority } from '../authority.js';
import {
  decideAccountCreation,
  decideUser,
  type UserCommand,
  type UserDecisionState,
  type UserSnapshot,
} from './decide.js';
import { grantsOf } from './site-roles-decide.js';
import {
  activeManagerIds,
  allSitesManagerIds,
  findUserRow,
  knownSites,
  listUsers,
  siteRolesOf,
  storeHasUsers,
  toUser,
  type UserRow,
} from './user-queries.js';

export interface CommandResult {
  row: UserRow;
  events: UserEvent[];
}

/** The decisions' view of a users row. */
export function toSnapshot(row: UserRow): UserSnapshot {
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    provider: row.provider,
    managerRequest: row.manager_request,
    browserNotifications: row.browser_notifications,
    siteRoles: siteRolesOf(row),
  };
}

/** Commands about someone else's reach, whose rules look at sites (site-roles-decide.ts). */
const ABOUT_SITES: ReadonlySet<UserCommand['type']> = new Set([
  'ChangeRole',
  'Disable',
  'Enable',
  'ApproveManagerRequest',
  'SetSiteRoles',
]);

async function loadState(
  db: Kysely<any>,
  uid: string,
  command: UserCommand,
): Promise<UserDecisionState & { version: number }> {
  const row = await findUserRow(db, uid);
  const aboutSites = ABOUT_SITES.has(command.type);
  return {
    user: row && toSnapshot(row),
    version: row?.version ?? 0,
    storeHasUsers: row ? true : await storeHasUsers(db),
    activeManagerIds: await activeManagerIds(db),
    roles: await rolePermissions(db),
    ...(aboutSites ? { allSitesManagerIds: await allSitesManagerIds(db), sites: await knownSites(db) } : {}),
  };
}

/** The command with its actor's permissions (and sites) as the records say now (authority.ts). */
async function withCurrentActor(db: Kysely<any>, command: UserCommand, state: UserDecisionState): Promise<UserCommand> {
  if (!('actor' in command) || !command.actor) return command;
  const found = command.actor.uid === state.user?.uid ? null : await findUserRow(db, command.actor.uid);
  const snapshot = command.actor.uid === state.user?.uid ? state.user : found && toSnapshot(found);
  const current = snapshot && {
    role: snapshot.role,
    status: snapshot.status,
    siteGrants: grantsOf(snapshot.siteRoles ?? null, snapshot.role, state.roles),
  };
  return { ...command, actor: narrowAuthority(command.actor, current, state.roles) };
}

/** Commands whose rules look at other accounts or at roles run under the accounts lock. */
const LOCKED: ReadonlySet<UserCommand['type']> = new Set([
  'ChangeRole',
  'SetSiteRoles',
  'Disable',
  'Enable',
  'ApproveManagerRequest',
  'Register',
]);

export class UserService {
  readonly firebase: FirebaseAccounts;

  constructor(private readonly ctx: AccountsContext) {
    this.firebase = new FirebaseAccounts(ctx.auth, ctx.identityToolkit);
  }

  get db() {
    return this.ctx.store.db;
  }

  list(q: string | undefined): Promise<User[]> {
    return listUsers(this.db, q);
  }

  async require(uid: string): Promise<UserRow> {
    const row = await findUserRow(this.db, uid);
    if (!row) throw new NotFoundError('User not found');
    return row;
  }

  /**
   * Decide and append for one account; retried when its stream moved meanwhile.
   * `beforeAppend` runs between the decision and the append (a Firebase change that can
   * still refuse, such as an email already in use).
   */
  async execute(
    uid: string,
    command: UserCommand,
    meta: EventMetadata,
    beforeAppend?: (events: UserEvent[]) => Promise<void>,
  ): Promise<CommandResult> {
    const run = async (db: Transaction, append: Append): Promise<UserEvent[]> => {
      const state = await loadState(db, uid, command);
      const events = decideUser(await withCurrentActor(db, command, state), state, new Date());
      if (events.length && beforeAppend) await beforeAppend(events);
      if (events.length) await append(userStream(uid), state.version, events, meta);
      return events;
    };
    const events = await retryOnConflict(async () => {
      try {
        if (LOCKED.has(command.type)) return await withAccountsLock(this.ctx.store, run);
        return await run(this.db, (stream, expected, evs, metadata) =>
          this.ctx.store.append(stream, expected, evs, metadata),
        );
      } catch (error) {
        // The founder index backs the lock up: if two first sign-ups ever both decide
        // "manager", one commit fails here and deciding again finds the store has its manager.
        if (command.type === 'Register' && violates(error, 'users_one_founder'))
          return withAccountsLock(this.ctx.store, run);
        throw error;
      }
    });
    return { row: await this.require(uid), events };
  }

  /** A real Firebase account with a password and a role, recorded as a registration. */
  async create(actor: Authority, body: CreateUserBody, meta: EventMetadata, log: FastifyBaseLogger): Promise<User> {
    // Check the actor and the role before making an account that would then have to be removed.
    decideAccountCreation(actor, body.role, await rolePermissions(this.db));
    const uid = await this.firebase.create(body);
    try {
      const result = await this.execute(
        uid,
        {
          type: 'Register',
          uid,
          name: body.name,
          email: body.email.toLowerCase(),
          provider: 'password',
          avatar: null,
          registeredBy: 'manager',
          requestedRole: body.role,
          actor,
        },
        meta,
      );
      await this.syncClaim(uid, result.row.role, log);
      log.info({ uid, role: result.row.role, by: meta.actor.uid }, 'account created by a manager');
      return toUser(result.row);
    } catch (error) {
      await this.firebase
        .remove(uid)
        .catch((e: unknown) => log.error({ err: e, uid }, 'could not remove an unrecorded account'));
      throw error;
    }
  }

  /**
   * Records an email Firebase changed (its owner followed a confirmation link) once the
   * caller's token shows an address other than ours; Firebase's record decides, so an older
   * token still naming the previous address changes nothing.
   */
  async syncEmail(principal: Principal, meta: EventMetadata, log: FastifyBaseLogger): Promise<UserRow> {
    const row = await this.require(principal.uid);
    const seen = principal.apiToken ? null : principal.token.email?.toLowerCase();
    if (!seen || row.email === null || seen === row.email.toLowerCase()) return row;
    let current: string | null;
    try {
      current = await this.firebase.currentEmail(principal.uid);
    } catch (error) {
      log.warn({ err: error, uid: principal.uid }, 'could not read the email from Firebase');
      return row;
    }
    if (!current) return row;
    const result = await this.execute(principal.uid, { type: 'SyncEmail', email: current }, meta);
    if (result.events.length) log.info({ uid: principal.uid }, 'confirmed email change recorded');
    return result.row;
  }

  /** Keeps the client's `role` claim in step; a failure is logged and healed at the next sign-in. */
  async syncClaim(uid: string, role: string, log: FastifyBaseLogger): Promise<boolean> {
    try {
      return await this.firebase.syncRoleClaim(uid, role);
    } catch (error) {
      if (isUserNotFound(error)) log.warn({ uid }, 'no Firebase account to carry the role claim');
      else log.error({ err: error, uid }, 'could not set the role claim');
      return false;
    }
  }
}
