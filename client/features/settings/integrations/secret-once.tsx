// A secret the server shows once (a signing secret, an API token): selectable, with a copy
// button and the warning that it cannot be shown again. `value` null: the thing was created,
// but the answer carrying the secret was lost and a retry got the server's replay, which
// never holds it (secretShownOnce): say so, and what to do instead.
import { useEffect, useRef } from 'react';
import { Icon } from '../../../components/icons';

export function SecretOnce({
  label,
  value,
  lostHint,
  onDone,
}: {
  label: string;
  value: string | null;
  lostHint: string;
  onDone: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // It appears above the list, while the form that made it may be a long way down the page
  // (or off a phone's screen): bring it into view and take focus, so it is not missed.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [value]);

  return (
    <div ref={box} className="secret-once" role="status" tabIndex={-1}>
      <p className="secret-once-badge">
        <Icon name="lock" size={14} /> Shown once
      </p>
      {value === null ? (
        <p className="secret-once-title">
          {label}: created, but the answer carrying it was lost on the way, and it is shown only once. {lostHint}
        </p>
      ) : (
        <>
          <p className="secret-once-title">{label}: copy it now, it will not be shown again.</p>
          <code className="secret-once-value" aria-label={label}>
            {value}
          </code>
        </>
      )}
      <div className="secret-once-actions">
        {value === null ? null : (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void navigator.clipboard?.writeText(value)}
          >
            Copy
          </button>
        )}
        <button type="button" className="btn btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
