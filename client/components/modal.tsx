// A modal dialog on the native <dialog> element (focus kept inside, Escape closes, the page
// behind is inert), at most 500px wide so a form stays one readable column. Closing is the
// caller's decision.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './icons';

export interface ModalProps {
  title: string;
  description?: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Block closing (while a request runs). */
  busy?: boolean;
  size?: 'default' | 'small';
}

export function Modal({ title, description, onClose, children, footer, busy = false, size = 'default' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={size === 'small' ? 'modal modal-small' : 'modal'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      onMouseDown={(event) => {
        if (event.target === ref.current && !busy) onClose();
      }}
    >
      <div className="modal-content">
        <header className="modal-header">
          <div>
            <h2 id={titleId} className="modal-title">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="modal-description">
                {description}
              </p>
            ) : null}
          </div>
          <button type="button" className="btn btn-icon btn-ghost" aria-label="Close" onClick={onClose} disabled={busy}>
            <Icon name="x" size={18} />
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer ? <footer className="modal-footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
