// The signed-in user's own profile: name, email and alert preferences. The name changes at
// once (in Firebase too). The email is how the account signs in and resets its password, so
// it takes the person themself, freshly signed in (never an API token), and the new address
// gets a link to confirm: Firebase changes the email when it is followed, and the server
// records it when it next sees the account with it (a sign-in, or this screen's read).
import type { FastifyBaseLogger } from 'fastify';
import type { AlertPreferences, Profile, ProfileUpdate } from '../../../shared/accounts.js';
import type { Principal } from '../../auth/principal.js';
import { NotFoundError, UnauthorizedError } from '../../errors.js';
import type { EventMetadata } from '../../eventstore/types.js';
import { cleanName, decideEmailChange, SIGN_IN_AGAIN, type SignInProof } from '../users/decide.js';
import { findUserRow, toPreferences, toUser, type UserRow } from '../users/user-queries.js';
import { toSnapshot, type UserService } from '../users/user-service.js';

function proofOf(principal: Principal): SignInProof {
  return { viaApiToken: Boolean(principal.apiToken), authTime: principal.token.authTime ?? null };
}

export class ProfileService {
  constructor(private readonly users: UserService) {}

  private async row(uid: string): Promise<UserRow> {
    const row = await findUserRow(this.users.db, uid);
    // The client registers through POST /api/session right after signing in.
    if (!row) throw new NotFoundError('Account not registered: sign in again');
    return row;
  }

  async get(principal: Principal, meta: EventMetadata, log: FastifyBaseLogger): Promise<Profile> {
    await this.row(principal.uid);
    const row = await this.users.syncEmail(principal, meta, log);
    return { user: toUser(row), preferences: toPreferences(row) };
  }

  /**
   * `idToken` is the caller's own Firebase ID token (null for an API token): Firebase mails
   * the confirmation link as that user.
   */
  async update(
    principal: Principal,
    body: { name?: string; email?: string },
    idToken: string | null,
    meta: EventMetadata,
    log: FastifyBaseLogger,
  ): Promise<ProfileUpdate> {
    const row = await this.row(principal.uid);
    // Every rule first, so a refused request changes nothing and sends nothing.
    const name = body.name === undefined ? undefined : cleanName(body.name);
    const newEmail =
      body.email === undefined ? null : decideEmailChange(body.email, proofOf(principal), toSnapshot(row), new Date());
    if (newEmail) {
      if (!idToken) throw new UnauthorizedError(SIGN_IN_AGAIN);
      await this.users.firebase.sendEmailChangeLink(idToken, newEmail);
      log.info({ uid: principal.uid }, 'email change link sent');
    }
    let current = row;
    if (name !== undefined) {
      const result = await this.users.execute(principal.uid, { type: 'UpdateProfile', name }, meta, async (events) => {
        for (const event of events)
          if (event.type === 'UserProfileUpdated' && event.data.name)
            await this.users.firebase.updateName(principal.uid, event.data.name);
      });
      if (result.events.length) log.info({ uid: principal.uid }, 'profile name changed');
      current = result.row;
    }
    return { user: toUser(current), preferences: toPreferences(current), emailVerificationSentTo: newEmail };
  }

  async setPreferences(principal: Principal, body: AlertPreferences, meta: EventMetadata): Promise<AlertPreferences> {
    await this.row(principal.uid);
    const result = await this.users.execute(principal.uid, { type: 'ChangePreferences', ...body }, meta);
    return toPreferences(result.row);
  }
}
