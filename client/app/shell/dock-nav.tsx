// The dock: a rail beside the page on wide screens, a bar at the bottom on small ones
// (first five entries only).
import { NavLink } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { MOBILE_DOCK_SIZE, type NavEntry } from './nav-entries';

export function DockNav({ entries }: { entries: NavEntry[] }) {
  return (
    <nav className="dock" aria-label="Main">
      <ul className="dock-list">
        {entries.map((entry, index) => (
          <li key={entry.to} className={index >= MOBILE_DOCK_SIZE ? 'dock-item dock-item-extra' : 'dock-item'}>
            <NavLink to={entry.to} className={({ isActive }) => (isActive ? 'dock-link active' : 'dock-link')}>
              <Icon name={entry.icon} size={20} />
              <span className="dock-label">{entry.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
