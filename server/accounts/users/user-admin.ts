// What a manager does to other accounts on the Users page: change a role, disable or
// enable, answer a manager request. Each is one decided command, then Firebase follows:
// the role claim for the client, the disabled flag and revoked refresh tokens for sign-in.
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../../../shared/accounts.js';
import type { SiteRoles } from '../../../shared/site-roles.js';
import type { EventMetadata } from '../../eventstore/types.js';
import type { Authority } from '../authority.js';
import type { UserCommand } from './decide.js';
import { toUser } from './user-queries.js';
import type { UserService } from './user-service.js';

export class UserAdmin {
  constructor(private readonly users: UserService) {}

  private async run(uid: string, command: UserCommand, meta: EventMetadata, log: FastifyBaseLogger) {
    const result = await this.users.execute(uid, command, meta);
    if (result.events.length) {
      log.info(
        { uid, by: meta.actor.uid, events: result.events.map((e) => e.type), role: result.row.role },
        'account changed',
      );
    }
    return result;
  }

  async changeRole(
    actor: Authority,
    uid: string,
    role: string,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<User> {
    const result = await this.run(uid, { type: 'ChangeRole', role, actor }, meta, log);
    await this.users.syncClaim(uid, result.row.role, log);
    return toUser(result.row);
  }

  /** Where someone's role holds; their next request (and their live feed) goes by it. */
  async setSiteRoles(
    actor: Authority,
    uid: string,
    siteRoles: SiteRoles,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<User> {
    return toUser((await this.run(uid, { type: 'SetSiteRoles', siteRoles, actor }, meta, log)).row);
  }

  async disable(actor: Authority, uid: string, meta: EventMetadata, log: FastifyBaseLogger): Promise<User> {
    const result = await this.run(uid, { type: 'Disable', actor }, meta, log);
    // The server already refuses this user's tokens (it reads status on every request);
    // Firebase stops new sign-ins and refreshes.
    await this.users.firebase
      .disable(uid)
      .catch((error: unknown) => log.error({ err: error, uid }, 'could not disable in Firebase'));
    return toUser(result.row);
  }

  async enable(actor: Authority, uid: string, meta: EventMetadata, log: FastifyBaseLogger): Promise<User> {
    const result = await this.run(uid, { type: 'Enable', actor }, meta, log);
    await this.users.firebase
      .enable(uid)
      .catch((error: unknown) => log.error({ err: error, uid }, 'could not enable in Firebase'));
    return toUser(result.row);
  }

  async approveManagerRequest(
    actor: Authority,
    uid: string,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<User> {
    const result = await this.run(uid, { type: 'ApproveManagerRequest', actor }, meta, log);
    await this.users.syncClaim(uid, result.row.role, log);
    return toUser(result.row);
  }

  async rejectManagerRequest(uid: string, meta: EventMetadata, log: FastifyBaseLogger): Promise<User> {
    return toUser((await this.run(uid, { type: 'RejectManagerRequest' }, meta, log)).row);
  }
}
