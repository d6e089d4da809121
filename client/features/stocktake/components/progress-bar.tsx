// "7 of 12 counted" with a bar: a session's progress.
export function ProgressBar({ counted, toCount }: { counted: number; toCount: number }) {
  const percent = toCount === 0 ? 0 : Math.round((counted / toCount) * 100);
  return (
    <span className="stocktake-progress">
      <span className="stocktake-progress-text">
        {counted} of {toCount} counted
      </span>
      <span
        className="stocktake-progress-bar"
        role="progressbar"
        aria-label="Counted"
        aria-valuemin={0}
        aria-valuemax={toCount}
        aria-valuenow={counted}
      >
        <span style={{ width: `${percent}%` }} />
      </span>
    </span>
  );
}
