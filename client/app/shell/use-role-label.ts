// The role label of the user menu: Manager, Staff or Guest for the built-in roles, and a
// custom role's own name (read from GET /api/roles, which every signed-in user may call),
// kept current when roles change. null while a custom role's name is on its way, so the
// menu never flashes a wrong label; 'Staff' only if the name can't be read at all.
import { useEffect, useState } from 'react';
import { isBuiltInRole, roleLabel } from '../../../shared/permissions';
import { onFeed } from '../../lib/realtime';
import { rolesApi } from '../../features/roles/api';

export function useRoleLabel(role: string): string | null {
  const builtIn = isBuiltInRole(role);
  const [custom, setCustom] = useState<{ role: string; label: string } | null>(null);

  useEffect(() => {
    if (builtIn) return;
    let live = true;
    const load = () =>
      rolesApi.list().then(
        (roles) => live && setCustom({ role, label: roleLabel(role, roles) }),
        () => live && setCustom((known) => (known?.role === role ? known : { role, label: roleLabel(role) })),
      );
    void load();
    // A renamed role shows its new name without a reload.
    const off = onFeed('event', ({ event }) => {
      if (event.streamType === 'role') void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [role, builtIn]);

  if (builtIn) return roleLabel(role);
  return custom?.role === role ? custom.label : null;
}
