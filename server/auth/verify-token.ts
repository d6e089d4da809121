// Verifies Firebase ID tokens. With the emulator, firebase-admin accepts the emulator's
// unsigned tokens (and only then). In production mode (`emulator: false`) our own check in
// verify-signed-token.ts accepts only RS256 tokens signed by Google's published keys, from a
// key URL a test can point at a local server; revocation and disabled accounts are then
// checked with firebase-admin. Without the option, firebase-admin decides, as before.
import { initializeApp, deleteApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth, type DecodedIdToken } from 'firebase-admin/auth';
import { randomUUID } from 'node:crypto';
import { UnauthorizedError } from '../errors.js';
import {
  createKeyFetcher,
  GOOGLE_SECURETOKEN_JWKS_URL,
  verifyEmulatorToken,
  verifySignedToken,
} from './verify-signed-token.js';

export interface VerifiedToken {
  uid: string;
  email: string | null;
  name: string | null;
  picture: string | null;
  roleClaim: string | null;
  provider: string;
  expiresAt: number;
  /**
   * When the user last proved who they are (the token's `auth_time`, seconds since the
   * epoch): a credential sign-in or re-authentication, not a token refresh. Absent for API
   * tokens, which are never a fresh sign-in (server/accounts/users/decide.ts).
   */
  authTime?: number;
}

export interface TokenVerifier {
  verify(token: string, options?: { checkRevoked?: boolean }): Promise<VerifiedToken>;
  auth: Auth;
  close(): Promise<void>;
}

export interface TokenVerifierOptions {
  /**
   * true: the Auth emulator (unsigned tokens, via firebase-admin). false: production mode,
   * signatures checked against `publicKeysUrl`. Unset: firebase-admin decides from
   * FIREBASE_AUTH_EMULATOR_HOST, as it always has.
   */
  emulator?: boolean;
  /** Production mode: the JSON Web Key Set of the signing keys (default: Google's). */
  publicKeysUrl?: string;
  fetch?: typeof fetch;
}

export function createTokenVerifier(projectId: string, verifierOptions: TokenVerifierOptions = {}): TokenVerifier {
  // A named app per verifier so tests can run servers for several projects in one process.
  const app: App = initializeApp({ projectId }, `stockroom-${randomUUID()}`);
  const auth = getAuth(app);
  const production = verifierOptions.emulator === false;
  const keyFor = createKeyFetcher(verifierOptions.publicKeysUrl ?? GOOGLE_SECURETOKEN_JWKS_URL, verifierOptions.fetch);

  async function decode(token: string, checkRevoked: boolean): Promise<DecodedIdToken> {
    if (verifierOptions.emulator === true && !checkRevoked) {
      // Checked here rather than by firebase-admin, which asks the emulator about every
      // token; disabled accounts are refused from the users projection on each request.
      const claims = verifyEmulatorToken(token, projectId) as unknown as DecodedIdToken;
      return { ...claims, uid: claims.sub };
    }
    if (!production) return auth.verifyIdToken(token, checkRevoked);
    const claims = (await verifySignedToken(token, projectId, keyFor)) as unknown as DecodedIdToken;
    if (checkRevoked) {
      // What firebase-admin's checkRevoked does: a disabled account, or tokens issued
      // before the last revocation, no longer count.
      const user = await auth.getUser(claims.sub);
      const validAfter = user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) / 1000 : 0;
      if (user.disabled || claims.auth_time < validAfter) throw new Error('revoked');
    }
    return { ...claims, uid: claims.sub };
  }

  return {
    auth,
    async verify(token, options = {}) {
      let decoded: DecodedIdToken;
      try {
        decoded = await decode(token, options.checkRevoked ?? false);
      } catch {
        throw new UnauthorizedError('Invalid or expired token');
      }
      return {
        uid: decoded.uid,
        email: decoded.email ?? null,
        name: (decoded.name as string | undefined) ?? null,
        picture: decoded.picture ?? null,
        roleClaim: typeof decoded.role === 'string' ? decoded.role : null,
        provider: decoded.firebase.sign_in_provider,
        expiresAt: decoded.exp * 1000,
        ...(typeof decoded.auth_time === 'number' ? { authTime: decoded.auth_time } : {}),
      };
    },
    close: () => deleteApp(app),
  };
}
