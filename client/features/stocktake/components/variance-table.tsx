// The variance per counted item, for those who run stocktakes: expected at the moment of
// counting, counted, difference and its value at the item's price, with totals; Approve per
// line (nothing posts before approval).
import type { StocktakeLine, StocktakeTotals } from '../../../../shared/stocktake';
import { signed, signedMoney } from './variance-format';

export interface VarianceTableProps {
  lines: StocktakeLine[];
  totals: StocktakeTotals;
  open: boolean;
  busy: Set<string>;
  onApprove: (line: StocktakeLine) => void;
}

const tone = (n: number | null) => (n === null || n === 0 ? '' : n < 0 ? 'stocktake-minus' : 'stocktake-plus');

export function VarianceTable({ lines, totals, open, busy, onApprove }: VarianceTableProps) {
  const shown = lines.filter((l) => l.status === 'counted' || l.status === 'approved');
  return (
    <section className="card stocktake-variance" aria-labelledby="stocktake-variance-title">
      <h2 id="stocktake-variance-title" className="card-title">
        Variance
      </h2>
      {shown.length === 0 ? (
        <p className="stocktake-muted">Nothing counted yet.</p>
      ) : (
        <div className="stocktake-table-wrap">
          <table className="stocktake-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Expected</th>
                <th scope="col">Counted</th>
                <th scope="col">Difference</th>
                <th scope="col">Value</th>
                <th scope="col">
                  <span className="visually-hidden">Approve</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((line) => (
                <tr key={line.itemId} data-testid="variance-row">
                  <th scope="row">{line.name}</th>
                  <td data-label="Expected">{line.expected ?? '—'}</td>
                  <td data-label="Counted">{line.counted}</td>
                  <td data-label="Difference" className={tone(line.difference)}>
                    {line.difference === null ? '—' : signed(line.difference)}
                  </td>
                  <td data-label="Value" className={tone(line.value)}>
                    {line.value === null ? '—' : signedMoney(line.value)}
                  </td>
                  <td>
                    {line.status === 'approved' ? (
                      <span className="badge badge-success">Approved</span>
                    ) : open ? (
                      <button type="button" className="btn btn-sm btn-secondary" disabled={busy.has(line.itemId)} aria-label={`Approve ${line.name}`} onClick={() => onApprove(line)}>
                        Approve
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-testid="variance-totals">
                <th scope="row">Totals</th>
                <td data-label="Expected">{totals.expected}</td>
                <td data-label="Counted">{totals.counted}</td>
                <td data-label="Difference" className={tone(totals.difference)}>
                  {totals.difference === null ? '—' : signed(totals.difference)}
                </td>
                <td data-label="Value" className={tone(totals.value)}>
                  {totals.value === null ? '—' : signedMoney(totals.value)}
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
