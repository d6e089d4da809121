// Who is making a request: the verified token plus the role and permissions the server
// grants. The resolver decides the role; the default trusts the role claim (set by us via
// firebase-admin), and the accounts feature replaces it with its own users projection.
import type { Permission } from '../../shared/permissions.js';
import { permissionsOfRole } from '../../shared/permissions.js';
import type { Actor } from '../eventstore/types.js';
import type { VerifiedToken } from './verify-token.js';

export interface Principal {
  uid: string;
  email: string | null;
  name: string | null;
  provider: string;
  role: string;
  permissions: Permission[];
  token: VerifiedToken;
}

export type PrincipalResolver = (token: VerifiedToken) => Promise<Principal>;

export const claimPrincipalResolver: PrincipalResolver = async (token) => {
  const role = token.provider === 'anonymous' ? 'guest' : (token.roleClaim ?? 'staff');
  return {
    uid: token.uid,
    email: token.email,
    name: token.name,
    provider: token.provider,
    role,
    permissions: permissionsOfRole(role),
    token,
  };
};

export function actorOf(principal: Principal | null): Actor {
  if (!principal) return { uid: null, name: 'Unknown User' };
  return { uid: principal.uid, name: principal.name || principal.email || 'Unknown User' };
}
