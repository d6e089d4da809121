// Renders the toasts top-right, under the header so they never cover Scan, Live or the user
// menu; each can be closed early. A repeated message shows its
// count instead of another toast. Resting the pointer on them, or focus in one, keeps them.
import { dismissToast, holdToasts, useToasts } from '../lib/toasts';
import { Icon } from './icons';

const ICONS = { success: 'check-circle', error: 'alert', info: 'info' } as const;

export function ToastViewport() {
  const toasts = useToasts();
  return (
    // "text" too: a collapsed toast says its new count by changing its text, not by a new node.
    // Pointer or focus on a toast holds them all (see holdToasts).
    <div
      className="toast-viewport"
      aria-live="polite"
      aria-relevant="additions text"
      onMouseOver={() => holdToasts(true)}
      onMouseLeave={() => holdToasts(false)}
      onFocus={() => holdToasts(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) holdToasts(false);
      }}
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast toast-${t.kind}`}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-group={t.group}
        >
          <Icon name={ICONS[t.kind]} size={18} className="toast-icon" />
          <div className="toast-body">
            <span className="toast-message">
              {t.message}
              {t.repeats > 1 && !t.group ? (
                <span className="toast-repeats" data-testid="toast-repeats">
                  <span aria-hidden="true">×{t.repeats}</span>
                  <span className="visually-hidden">({t.repeats} times)</span>
                </span>
              ) : null}
            </span>
            {t.action && (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  dismissToast(t.id);
                  // Its button goes with it, and focus with it, unnoticed by onBlur.
                  holdToasts(false);
                  t.action!.run();
                }}
              >
                {t.action.label}
              </button>
            )}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss notification"
            onClick={() => {
              dismissToast(t.id);
              holdToasts(false);
            }}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
