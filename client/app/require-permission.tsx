// Guard for manager routes: without the permission, either redirect to /dashboard
// (add and edit item) or show 'Access Denied' in place (users, roles).
import { useContext } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { hasPermission, type PermissionNeed } from '../../shared/permissions';
import { SessionContext } from '../lib/session-context';
import { AccessDenied } from './access-denied';

export function RequirePermission({
  permission,
  otherwise,
}: {
  permission: PermissionNeed;
  otherwise: 'redirect' | 'deny';
}) {
  const session = useContext(SessionContext);
  if (session && hasPermission(session.permissions, permission)) return <Outlet />;
  if (otherwise === 'deny') return <AccessDenied />;
  return <Navigate to="/dashboard" replace />;
}
