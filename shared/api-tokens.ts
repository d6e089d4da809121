// API tokens (personal access tokens for scripts and tills) as both sides see them.
import type { Permission } from './permissions.js';

export const API_TOKEN_PREFIX = 'srk_';

export type ApiTokenStatus = 'active' | 'expired' | 'revoked';

export interface ApiToken {
  id: string;
  name: string;
  /** Whose token it is: it acts as them, never with more than their permissions. */
  userId: string;
  userName: string;
  permissions: Permission[];
  expiresAt: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  status: ApiTokenStatus;
}

export interface CreateApiToken {
  name: string;
  expiresAt: string;
  permissions: Permission[];
}

export type ApiTokenEvent =
  | {
      type: 'ApiTokenCreated';
      /** The sha256 of the token, never the token; userName and role as they were at creation. */
      data: {
        tokenId: string;
        name: string;
        userId: string;
        userName: string;
        role: string;
        tokenHash: string;
        permissions: Permission[];
        expiresAt: string;
      };
    }
  | { type: 'ApiTokenRevoked'; data: { name: string } };

export const apiTokenStream = (id: string) => ({ id: `api-token-${id}`, type: 'api-token' });
