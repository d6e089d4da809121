// The phone's More sheet: the destinations that do not fit the bottom bar, in a modal
// dialog sliding up from the bottom. The native <dialog> keeps focus inside and makes the
// page behind inert; the first link takes focus on open; Escape, the close button, a tap
// on the backdrop or choosing a destination closes it, and focus goes back to More.
import { useId, useLayoutEffect, useRef } from 'react';
import { NavLink } from 'react-router-dom';
import { Icon } from '../../components/icons';
import type { NavEntry } from './nav-entries';

export function MoreSheet({ id, entries, onClose }: { id: string; entries: NavEntry[]; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // A layout effect, so the dialog is closed while still in the document: the page behind
  // stops being inert before anything tries to focus it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('.more-sheet-link')?.focus();
    return () => dialog.close();
  }, []);

  return (
    <dialog
      ref={ref}
      id={id}
      className="more-sheet"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // The backdrop is the dialog element itself, outside its content box.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="more-sheet-content">
        <header className="more-sheet-header">
          <h2 id={titleId} className="more-sheet-title">
            More
          </h2>
          <button type="button" className="btn btn-icon btn-ghost" aria-label="Close" onClick={onClose}>
            <Icon name="x" size={18} />
          </button>
        </header>
        <ul className="more-sheet-list">
          {entries.map((entry) => (
            <li key={entry.to}>
              <NavLink
                to={entry.to}
                className={({ isActive }) => (isActive ? 'more-sheet-link active' : 'more-sheet-link')}
                onClick={onClose}
              >
                <Icon name={entry.icon} size={20} />
                <span>{entry.label}</span>
                <Icon name="chevron-right" size={18} className="more-sheet-chevron" />
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </dialog>
  );
}
