// Items counted twice with different numbers: each count with who and when (and, for those
// who run stocktakes, the difference it implies), and "Keep this count" to approve one.
import { lineKey, type StocktakeLine } from '../../../../shared/stocktake';
import { formatDateTime } from '../../../lib/format';
import { signed } from './variance-format';

export function ConflictsSection({
  lines,
  canApprove,
  showPlace = false,
  onKeep,
}: {
  lines: StocktakeLine[];
  canApprove: boolean;
  /** Say where each line is (a session of several locations). */
  showPlace?: boolean;
  onKeep: (line: StocktakeLine, countId: string) => void;
}) {
  if (lines.length === 0) return null;
  return (
    <section className="card stocktake-conflicts" aria-labelledby="stocktake-conflicts-title">
      <h2 id="stocktake-conflicts-title" className="card-title">
        Counted twice with different numbers ({lines.length})
      </h2>
      <ul className="stocktake-conflict-list">
        {lines.map((line) => (
          <li key={lineKey(line)} data-testid="conflict">
            <strong>{line.name}</strong>
            {showPlace ? <span className="stocktake-muted"> at {line.locationName}</span> : null}
            <ul>
              {line.counts.map((c) => (
                <li key={c.id} className="stocktake-conflict-count">
                  <span>
                    <strong>{c.counted}</strong> by {c.countedBy}, {formatDateTime(c.countedAt)}
                    {c.difference !== null ? ` (difference ${signed(c.difference)})` : ''}
                  </span>
                  {canApprove ? (
                    <button type="button" className="btn btn-sm btn-secondary" onClick={() => onKeep(line, c.id)}>
                      Keep {c.counted}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
