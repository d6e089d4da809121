// What features may know about the signed-in user: who they are and what they may do.
// client/app provides it from the auth machine; features read it through these hooks and
// decide with permissions (never role names).
import { createContext, useContext } from 'react';
import type { User } from '../../shared/accounts';
import { hasPermission, type Permission, type PermissionNeed } from '../../shared/permissions';

export interface SessionInfo {
  user: User;
  permissions: Permission[];
}

export const SessionContext = createContext<SessionInfo | null>(null);

export function useSession(): SessionInfo {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used within a signed-in screen');
  return session;
}

/** True when the signed-in user has the permission. */
export function useCan(permission: PermissionNeed): boolean {
  const session = useContext(SessionContext);
  return session ? hasPermission(session.permissions, permission) : false;
}
