// The shared layout of signed-in screens: the header (product title, Scan, live indicator,
// theme toggle, user menu), the dock, and the page.
import { Link, Outlet } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { ThemeToggle } from '../../components/theme-toggle';
import { useSession } from '../../lib/session-context';
import { DockNav } from './dock-nav';
import { LiveIndicator } from './live-indicator';
import { OutboxBadge } from '../../offline/outbox-badge';
import { IntegrationsAlert } from '../../features/settings/integrations/integrations-alert';
import { visibleEntries } from './nav-entries';
import { ScannerHost } from './scanner-host';
import { UserMenu } from './user-menu';
import './shell.css';

export function AppShell({ onLogout }: { onLogout: () => void }) {
  const { permissions, user } = useSession();
  return (
    <div className="shell">
      <header className="shell-header">
        <Link to={user.siteRoles ? '/inventory' : '/dashboard'} className="brand">
          <span className="brand-mark">
            <Icon name="box" size={18} />
          </span>
          <span className="brand-name">Stockroom</span>
        </Link>
        <div className="shell-header-actions">
          <ScannerHost />
          <IntegrationsAlert />
          <OutboxBadge />
          <LiveIndicator />
          <ThemeToggle />
          <UserMenu onLogout={onLogout} />
        </div>
      </header>
      <DockNav entries={visibleEntries(permissions, !user.siteRoles)} />
      <main className="shell-main" id="main">
        <Outlet />
      </main>
    </div>
  );
}
