// Step 4: the commit, batch by batch.
import { formatCount } from '../../../lib/format';

export function ProgressStep(props: {
  fileName: string;
  done: number;
  total: number;
  error: string | null;
  onRetry: () => void;
}) {
  const percent = props.total ? Math.round((props.done / props.total) * 100) : 100;
  return (
    <section className="card import-step" aria-labelledby="progress-title">
      <h2 id="progress-title" className="card-title">
        Importing {props.fileName}
      </h2>
      <progress className="import-progress" max={props.total} value={props.done} aria-label="Import progress">
        {percent}%
      </progress>
      <p aria-live="polite">
        {formatCount(props.done)} of {formatCount(props.total)} rows ({percent}%)
      </p>
      {props.error ? (
        <>
          <p className="import-warning" role="alert">
            {props.error}
          </p>
          <button type="button" className="btn btn-primary" onClick={props.onRetry}>
            Try again
          </button>
        </>
      ) : (
        <p className="muted">You can close this tab: reopening the import page resumes where it stopped.</p>
      )}
    </section>
  );
}
