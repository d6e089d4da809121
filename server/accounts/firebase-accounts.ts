// The accounts feature's use of firebase-admin: real accounts, the `role` custom claim the
// client reads, and disabling sign-in. Firebase error codes become our domain errors here.
import type { Auth } from 'firebase-admin/auth';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string; errorInfo?: { code?: string } })?.errorInfo?.code ?? (error as { code?: string })?.code;
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
  constructor(private readonly auth: Auth) {}

  async create(input: { name: string; email: string; password: string }): Promise<string> {
    try {
      const record = await this.auth.createUser({ email: input.email, password: input.password, displayName: input.name });
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

  async updateProfile(uid: string, changes: { name?: string; email?: string }): Promise<void> {
    try {
      await this.auth.updateUser(uid, {
        ...(changes.name !== undefined ? { displayName: changes.name } : {}),
        ...(changes.email !== undefined ? { email: changes.email } : {}),
      });
    } catch (error) {
      translateFirebaseError(error);
    }
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
