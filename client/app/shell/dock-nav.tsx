// The dock: a rail beside the page on wide screens with every entry; on a phone, a bottom
// bar with the first entries (phoneBar) and a More button that opens a sheet with the rest,
// so every destination a role has is within reach at any width.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { MoreSheet } from './more-sheet';
import { phoneBar, type NavEntry } from './nav-entries';
import { usePhoneLayout } from './use-phone-layout';

function DockLink({ entry }: { entry: NavEntry }) {
  return (
    <li className="dock-item">
      <NavLink to={entry.to} className={({ isActive }) => (isActive ? 'dock-link active' : 'dock-link')}>
        <Icon name={entry.icon} size={20} />
        <span className="dock-label">{entry.label}</span>
      </NavLink>
    </li>
  );
}

export function DockNav({ entries }: { entries: NavEntry[] }) {
  const phone = usePhoneLayout();
  const { bar, more } = phone ? phoneBar(entries) : { bar: entries, more: [] };
  const [open, setOpen] = useState(false);
  const moreRef = useRef<HTMLButtonElement>(null);
  const sheetId = useId();
  const { pathname } = useLocation();
  // Where you are is under More: the More button shows it.
  const hereUnderMore = more.some((entry) => pathname === entry.to || pathname.startsWith(`${entry.to}/`));
  const close = useCallback(() => setOpen(false), []);
  // Focus goes back to More once the sheet is gone (while it is open, More is inert).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) moreRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // A role change can empty the sheet, and a wider window has no sheet.
  const hasMore = more.length > 0;
  useEffect(() => {
    if (!hasMore) setOpen(false);
  }, [hasMore]);

  return (
    <nav className="dock" aria-label="Main">
      <ul className="dock-list">
        {bar.map((entry) => (
          <DockLink key={entry.to} entry={entry} />
        ))}
        {hasMore ? (
          <li className="dock-item">
            <button
              ref={moreRef}
              type="button"
              className={hereUnderMore ? 'dock-link dock-more active' : 'dock-link dock-more'}
              aria-haspopup="dialog"
              aria-expanded={open}
              aria-controls={open ? sheetId : undefined}
              onClick={() => setOpen((o) => !o)}
            >
              <Icon name="more-horizontal" size={20} />
              <span className="dock-label">More</span>
            </button>
          </li>
        ) : null}
      </ul>
      {open && hasMore ? <MoreSheet id={sheetId} entries={more} onClose={close} /> : null}
    </nav>
  );
}
