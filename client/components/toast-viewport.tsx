// Renders the toasts top-right (spec section 9); each can be closed early.
import { dismissToast, useToasts } from '../lib/toasts';
import { Icon } from './icons';

const ICONS = { success: 'check-circle', error: 'alert', info: 'info' } as const;

export function ToastViewport() {
  const toasts = useToasts();
  return (
    <div className="toast-viewport" aria-live="polite" aria-relevant="additions">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={ICONS[t.kind]} size={18} className="toast-icon" />
          <span className="toast-message">{t.message}</span>
          {t.action && (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                dismissToast(t.id);
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
