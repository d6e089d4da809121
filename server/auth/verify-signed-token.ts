// Production-mode check of a Firebase ID token: RS256 only, signed by one of Google's
// securetoken keys, for this project, unexpired. Written against node:crypto so the key
// endpoint can be pointed elsewhere (tests serve their own keys); firebase-admin's own
// verifier fetches from a fixed googleapis URL and cannot be tested that way.
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

/** Google's public keys for Firebase ID tokens, as a JSON Web Key Set. */
export const GOOGLE_SECURETOKEN_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

export interface SignedTokenClaims {
  sub: string;
  aud: string;
  iss: string;
  exp: number;
  iat: number;
  auth_time: number;
  email?: string;
  name?: string;
  picture?: string;
  role?: unknown;
  firebase: { sign_in_provider: string };
  [claim: string]: unknown;
}

export class TokenRejected extends Error {}

/** Allowed clock difference between Google and us. */
const CLOCK_SKEW_S = 5;

function decodePart(part: string | undefined): Record<string, any> {
  if (!part) throw new TokenRejected('malformed token');
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (!value || typeof value !== 'object') throw new TokenRejected('malformed token');
    return value;
  } catch {
    throw new TokenRejected('malformed token');
  }
}

interface KeySet {
  keys: Map<string, KeyObject>;
  expiresAt: number;
}

/** Keys by id, cached for as long as the endpoint's Cache-Control max-age says. */
export function createKeyFetcher(url: string, fetchImpl: typeof fetch = fetch, now: () => number = Date.now) {
  let cached: KeySet | null = null;
  let inflight: Promise<KeySet> | null = null;

  async function load(): Promise<KeySet> {
    const res = await fetchImpl(url);
    if (!res.ok) throw new Error(`public keys: HTTP ${res.status}`);
    const body = (await res.json()) as { keys?: Array<JsonWebKey & { kid?: string }> };
    const keys = new Map<string, KeyObject>();
    for (const jwk of body.keys ?? []) {
      if (jwk.kid && jwk.kty === 'RSA') keys.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
    }
    const maxAge = /max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1];
    return { keys, expiresAt: now() + (maxAge ? Number(maxAge) * 1000 : 60 * 60 * 1000) };
  }

  return async function keyFor(kid: string): Promise<KeyObject | undefined> {
    if (!cached || cached.expiresAt <= now()) {
      inflight ??= load().finally(() => (inflight = null));
      cached = await inflight;
    }
    return cached.keys.get(kid);
  };
}

export async function verifySignedToken(
  token: string,
  projectId: string,
  keyFor: (kid: string) => Promise<KeyObject | undefined>,
  nowMs: number = Date.now(),
): Promise<SignedTokenClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenRejected('malformed token');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodePart(headerPart);
  // Only Google's algorithm: this refuses `none` (unsigned) and HS256 (key confusion).
  if (header.alg !== 'RS256') throw new TokenRejected(`algorithm ${String(header.alg)} not accepted`);
  if (typeof header.kid !== 'string') throw new TokenRejected('no key id');
  const key = await keyFor(header.kid);
  if (!key) throw new TokenRejected('unknown signing key');
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${headerPart}.${payloadPart}`),
    key,
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!signed) throw new TokenRejected('bad signature');
  return checkClaims(decodePart(payloadPart) as SignedTokenClaims, projectId, nowMs);
}

/**
 * The Auth emulator's tokens: unsigned (`alg: none`), otherwise the same claims. Only ever
 * called when the server itself is configured for the emulator.
 */
export function verifyEmulatorToken(token: string, projectId: string, nowMs: number = Date.now()): SignedTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenRejected('malformed token');
  const header = decodePart(parts[0]);
  if (header.alg !== 'none' && header.alg !== 'RS256')
    throw new TokenRejected(`algorithm ${String(header.alg)} not accepted`);
  return checkClaims(decodePart(parts[1]) as SignedTokenClaims, projectId, nowMs);
}

function checkClaims(claims: SignedTokenClaims, projectId: string, nowMs: number): SignedTokenClaims {
  const now = Math.floor(nowMs / 1000);
  if (claims.aud !== projectId) throw new TokenRejected('wrong audience');
  if (claims.iss !== `https://securetoken.google.com/${projectId}`) throw new TokenRejected('wrong issuer');
  if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > 128) throw new TokenRejected('bad subject');
  if (typeof claims.exp !== 'number' || claims.exp <= now - CLOCK_SKEW_S) throw new TokenRejected('expired');
  if (typeof claims.iat !== 'number' || claims.iat > now + CLOCK_SKEW_S)
    throw new TokenRejected('issued in the future');
  if (typeof claims.auth_time !== 'number' || claims.auth_time > now + CLOCK_SKEW_S)
    throw new TokenRejected('bad auth_time');
  if (typeof claims.firebase?.sign_in_provider !== 'string') throw new TokenRejected('no sign-in provider');
  return claims;
}
