// A secret the server shows once (a signing secret, an API token): selectable, with a copy
// button and the warning that it cannot be shown again.
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <div className="secret-once" role="status">
      <p className="secret-once-title">{label}: copy it now, it will not be shown again.</p>
      <code className="secret-once-value" aria-label={label}>
        {value}
      </code>
      <div className="secret-once-actions">
        <button type="button" className="btn btn-secondary" onClick={() => void navigator.clipboard?.writeText(value)}>
          Copy
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
