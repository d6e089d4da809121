// The accounts feature's use of Firebase: real accounts, the `role` custom claim the client
// reads, disabling sign-in (firebase-admin), and the email change link (Identity Toolkit, as
// the user: Firebase mails it). Firebase error codes become our domain errors here.
import type { Auth } from 'firebase-admin/auth';
import { ConflictError, DomainError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { SIGN_IN_AGAIN } from './users/decide.js';

/** Where the Identity Toolkit API answers: Google, or the Auth emulator. */
export interface IdentityToolkit {
  /** Up to and including `/v1`. */
  baseUrl: string;
  /** The project's public web API key (the one the client uses). */
  apiKey: string;
}

export function identityToolkitFor(config: {
  authEmulatorHost: string | undefined;
  firebaseApiKey: string;
}): IdentityToolkit {
  const host = config.authEmulatorHost ? `http://${config.authEmulatorHost}` : 'https://identitytoolkit.googleapis.com';
  return {
    baseUrl: `${host}${config.authEmulatorHost ? '/identitytoolkit.googleapis.com' : ''}/v1`,
    apiKey: config.firebaseApiKey,
  };
}

/** Identity Toolkit error names ("EMAIL_EXISTS : ...") a user can cause, as domain errors. */
function identityToolkitError(message: string): Error {
  switch (message.split(/[\s:]/)[0]) {
    case 'EMAIL_EXISTS':
      return new ConflictError('Email already in use');
    case 'INVALID_EMAIL':
    case 'INVALID_NEW_EMAIL':
      return new ValidationError('Invalid email address');
    // Firebase's own recent-sign-in rule, and tokens it no longer takes: sign in again.
    case 'CREDENTIAL_TOO_OLD_LOGIN_AGAIN':
    case 'TOKEN_EXPIRED':
    case 'INVALID_ID_TOKEN':
    case 'USER_NOT_FOUND':
    case 'USER_DISABLED':
      return new UnauthorizedError(SIGN_IN_AGAIN);
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return new DomainError('Too many attempts. Please try again later', 429, 'rate_limited');
    default:
      return new Error(`Identity Toolkit: ${message}`);
  }
}

function codeOf(error: unknown): string | undefined {
  return (
    (error as { code?: string; errorInfo?: { code?: string } })?.errorInfo?.code ?? (error as { code?: string })?.code
  );
}

/** Turns the firebase-admin errors a user can cause into 4xx; anything else stays a 500. */
export function translateFirebaseError(error: unknown): never {
  switch (codeOf(error)) {
    case 'auth/email-already-exists':
      throw new ConflictError('Email already in use');
    case 'auth/invalid-email':
      throw new ValidationError('Invalid email address');
    case 'auth/invalid-password':
      throw new ValidationError('Password is too weak. Please use a stronger password');
    case 'auth/invalid-display-name':
      throw new ValidationError('Invalid name');
    case 'auth/user-not-found':
      throw new NotFoundError('User not found');
    default:
      throw error;
  }
}

export function isUserNotFound(error: unknown): boolean {
  return codeOf(error) === 'auth/user-not-found';
}

export class FirebaseAccounts {
  constructor(
    private readonly auth: Auth,
    /** Needed only to change emails (the demo seed never does). */
    private readonly identityToolkit?: IdentityToolkit,
  ) {}

  async create(input: { name: string; email: string; password: string }): Promise<string> {
    try {
      const record = await this.auth.createUser({
        email: input.email,
        password: input.password,
        displayName: input.name,
      });
      return record.uid;
    } catch (error) {
      return translateFirebaseError(error);
    }
  }

  /** Removes an account we created when recording it failed, so no orphan can sign in. */
  async remove(uid: string): Promise<void> {
    await this.auth.deleteUser(uid);
  }

  /** Sets the `role` claim (keeping other claims); true when it changed. */
  async syncRoleClaim(uid: string, role: string): Promise<boolean> {
    const record = await this.auth.getUser(uid);
    const claims = record.customClaims ?? {};
    if (claims.role === role) return false;
    await this.auth.setCustomUserClaims(uid, { ...claims, role });
    return true;
  }

  /** The display name only: an email never changes here, only through its owner's link. */
  async updateName(uid: string, name: string): Promise<void> {
    try {
      await this.auth.updateUser(uid, { displayName: name });
    } catch (error) {
      translateFirebaseError(error);
    }
  }

  /**
   * Asks Firebase to mail `newEmail` a link that changes the account's email when followed
   * (what the client SDK's verifyBeforeUpdateEmail does), as the user, with their own ID
   * token: Firebase sends the mail and applies its own recent-sign-in rule too. The emulator
   * keeps the link instead (GET /emulator/v1/projects/{id}/oobCodes).
   */
  async sendEmailChangeLink(idToken: string, newEmail: string): Promise<void> {
    if (!this.identityToolkit) throw new Error('Email changes need the Identity Toolkit endpoint');
    const { baseUrl, apiKey } = this.identityToolkit;
    const res = await fetch(`${baseUrl}/accounts:sendOobCode?key=${encodeURIComponent(apiKey)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestType: 'VERIFY_AND_CHANGE_EMAIL', idToken, newEmail }),
      signal: AbortSignal.timeout(15_000),
    });
    if (res.ok) return;
    const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
    throw identityToolkitError(String(body?.error?.message ?? `HTTP ${res.status}`));
  }

  /** The account's email as Firebase has it now (after a followed link, the new one). */
  async currentEmail(uid: string): Promise<string | null> {
    return (await this.auth.getUser(uid)).email ?? null;
  }

  /** Stops new sign-ins and token refreshes; the server refuses existing ID tokens itself. */
  async disable(uid: string): Promise<void> {
    await this.auth.updateUser(uid, { disabled: true });
    await this.auth.revokeRefreshTokens(uid);
  }

  async enable(uid: string): Promise<void> {
    await this.auth.updateUser(uid, { disabled: false });
  }
}
