// The red box every screen uses for a failure, so failures look alike everywhere, with an
// optional Retry button.
import { Icon } from './icons';

export function ErrorBox({ message, onRetry, title }: { message: string; onRetry?: () => void; title?: string }) {
  return (
    <div className="error-box" role="alert">
      <Icon name="alert" size={18} className="error-box-icon" />
      <div className="error-box-body">
        {title ? <strong className="error-box-title">{title}</strong> : null}
        <span>{message}</span>
      </div>
      {onRetry ? (
        <button type="button" className="btn btn-sm btn-danger-outline" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
