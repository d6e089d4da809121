// The signed-in user's own profile: name and email (changed in Firebase too, where the
// email must be unique) and alert preferences.
import type { FastifyBaseLogger } from 'fastify';
import type { AlertPreferences, Profile } from '../../../shared/accounts.js';
import type { Principal } from '../../auth/principal.js';
import { NotFoundError } from '../../errors.js';
import type { EventMetadata } from '../../eventstore/types.js';
import { findUserRow, toPreferences, toUser, type UserRow } from '../users/user-queries.js';
import type { UserService } from '../users/user-service.js';

export class ProfileService {
  constructor(private readonly users: UserService) {}

  private async row(uid: string): Promise<UserRow> {
    const row = await findUserRow(this.users.db, uid);
    // The client registers through POST /api/session right after signing in.
    if (!row) throw new NotFoundError('Account not registered: sign in again');
    return row;
  }

  async get(principal: Principal): Promise<Profile> {
    const row = await this.row(principal.uid);
    return { user: toUser(row), preferences: toPreferences(row) };
  }

  async update(principal: Principal, body: { name?: string; email?: string }, meta: EventMetadata, log: FastifyBaseLogger): Promise<Profile> {
    await this.row(principal.uid);
    const result = await this.users.execute(principal.uid, { type: 'UpdateProfile', ...body }, meta, async (events) => {
      for (const event of events) if (event.type === 'UserProfileUpdated') await this.users.firebase.updateProfile(principal.uid, event.data);
    });
    if (result.events.length) log.info({ uid: principal.uid, changed: result.events.flatMap((e) => Object.keys(e.data)) }, 'profile updated');
    return { user: toUser(result.row), preferences: toPreferences(result.row) };
  }

  async setPreferences(principal: Principal, body: AlertPreferences, meta: EventMetadata): Promise<AlertPreferences> {
    await this.row(principal.uid);
    const result = await this.users.execute(principal.uid, { type: 'ChangePreferences', ...body }, meta);
    return toPreferences(result.row);
  }
}
