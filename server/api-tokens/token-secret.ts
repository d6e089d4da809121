// The token itself: `srk_` and 32 random bytes (base64url), shown once; only its sha256 is
// kept, so a leaked database cannot be used to call the API.
import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '../../shared/api-tokens.js';

export function newTokenSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}
