// A secret the server shows once (a signing secret, an API token): selectable, with a copy
// button and the warning that it cannot be shown again. `value` null: the thing was created,
// but the answer carrying the secret was lost and a retry got the server's replay, which
// never holds it (secretShownOnce): say so, and what to do instead.
export function SecretOnce({ label, value, lostHint, onDone }: { label: string; value: string | null; lostHint: string; onDone: () => void }) {
  return (
    <div className="secret-once" role="status">
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
          <button type="button" className="btn btn-secondary" onClick={() => void navigator.clipboard?.writeText(value)}>
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
