// The user menu: name, email and role label (Manager, Staff or Guest, or a custom role's
// own name), links to Profile and Settings, and Logout. Closes on Escape, outside clicks
// and navigation.
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { useSession } from '../../lib/session-context';
import { useRoleLabel } from './use-role-label';

export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  return (parts[0]![0]! + (parts.length > 1 ? parts[parts.length - 1]![0]! : '')).toUpperCase();
}

export function UserMenu({ onLogout }: { onLogout: () => void }) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const location = useLocation();
  const name = user.name || user.email || (user.role === 'guest' ? 'Guest' : 'Unknown User');
  const label = useRoleLabel(user.role);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    const onClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpen((o) => !o)}
      >
        {user.avatar ? (
          <img className="avatar" src={user.avatar} alt="" />
        ) : (
          <span className="avatar">{initialsOf(name)}</span>
        )}
        <span className="user-menu-name">{name}</span>
        <Icon name="chevron-down" size={16} className="user-menu-chevron" />
      </button>
      {open ? (
        <div className="user-menu-panel" id={menuId} role="menu">
          <div className="user-menu-header">
            <span className="user-menu-title">{name}</span>
            {user.email ? <span className="user-menu-email">{user.email}</span> : null}
            {label ? (
              <span
                className={`badge badge-role badge-role-${user.role === 'manager' ? 'manager' : user.role === 'guest' ? 'guest' : 'staff'}`}
              >
                {label}
              </span>
            ) : null}
          </div>
          <Link to="/profile" role="menuitem" className="user-menu-item">
            <Icon name="user" size={16} /> Profile
          </Link>
          <Link to="/settings" role="menuitem" className="user-menu-item">
            <Icon name="settings" size={16} /> Settings
          </Link>
          <button type="button" role="menuitem" className="user-menu-item user-menu-logout" onClick={onLogout}>
            <Icon name="logout" size={16} /> Logout
          </button>
        </div>
      ) : null}
    </div>
  );
}
