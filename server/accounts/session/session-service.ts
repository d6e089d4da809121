// POST /api/session, called by the client after every sign-in: registers a first-time
// account (first of the store: manager; asked for manager: staff plus a request; anonymous:
// guest), then makes sure the `role` claim the client reads matches the server's record.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionBody, SessionResponse } from '../../../shared/accounts.js';
import { permissionsOfRole } from '../../../shared/permissions.js';
import type { Principal } from '../../auth/principal.js';
import type { EventMetadata } from '../../eventstore/types.js';
import { customRoles } from '../roles/role-queries.js';
import { findUserRow, toUser } from '../users/user-queries.js';
import type { UserService } from '../users/user-service.js';

export class SessionService {
  constructor(
    private readonly users: UserService,
    private readonly db: Kysely<any>,
  ) {}

  async start(
    principal: Principal,
    body: SessionBody,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<SessionResponse> {
    const db = this.db;
    let row = await findUserRow(db, principal.uid);
    if (!row) {
      const token = principal.token;
      const result = await this.users.execute(
        principal.uid,
        {
          type: 'Register',
          uid: principal.uid,
          name: body.name ?? token.name,
          email: token.email?.toLowerCase() ?? null,
          provider: token.provider,
          avatar: token.picture,
          registeredBy: 'self',
          requestedRole: body.requestedRole ?? null,
        },
        meta,
      );
      row = result.row;
      if (result.events.length) {
        log.info(
          { uid: row.id, role: row.role, provider: row.provider, managerRequested: row.manager_request === 'pending' },
          'account registered',
        );
      }
    } else {
      // Signed in with an email confirmed since (a followed change link): record it.
      row = await this.users.syncEmail(principal, meta, log);
    }
    const claimChanged = await this.users.syncClaim(row.id, row.role, log);
    // Also when the claim was set earlier (a role change) but this token predates it.
    const refreshToken = claimChanged || principal.token.roleClaim !== row.role;
    if (refreshToken) log.info({ uid: row.id, role: row.role }, 'role claim out of date: client told to refresh');
    return { user: toUser(row), permissions: permissionsOfRole(row.role, await customRoles(db)), refreshToken };
  }
}
