// The review, for those who run stocktakes: per counted item the quantity expected at the
// moment of counting, the count and who made it, the difference and its value at the item's
// price, with totals; sortable by size of variance (units or value, largest first at first);
// Approve per line (nothing posts before approval).
import { useState } from 'react';
import { lineKey, type StocktakeLine, type StocktakeTotals } from '../../../../shared/stocktake';
import { Icon } from '../../../components/icons';
import { useStoreMoney } from '../../../lib/store-money';
import { signed, signedMoney } from './variance-format';
import {
  DEFAULT_VARIANCE_SORT,
  nextVarianceSort,
  sortByVariance,
  type VarianceSort,
  type VarianceSortKey,
} from './variance-sort';

export interface VarianceTableProps {
  lines: StocktakeLine[];
  totals: StocktakeTotals;
  open: boolean;
  /** Lines being approved (lineKey). */
  busy: Set<string>;
  /** Say where each line is (a session of several locations). */
  showPlace?: boolean;
  onApprove: (line: StocktakeLine) => void;
}

const tone = (n: number | null) => (n === null || n === 0 ? '' : n < 0 ? 'stocktake-minus' : 'stocktake-plus');

const COLUMN_NAMES: Record<VarianceSortKey, string> = { difference: 'Difference', value: 'Value' };

/** A column header that sorts the review by that column's size. */
function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: VarianceSortKey;
  sort: VarianceSort;
  onSort: (key: VarianceSortKey) => void;
}) {
  const active = sort.key === column;
  const largest = sort.direction === 'largest';
  return (
    <th scope="col" className="stocktake-sortable" aria-sort={active ? (largest ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className={`stocktake-sort${active ? ' active' : ''}`} onClick={() => onSort(column)}>
        {COLUMN_NAMES[column]}
        <Icon
          name={active && !largest ? 'chevron-up' : 'chevron-down'}
          size={14}
          className={active ? undefined : 'stocktake-sort-idle'}
        />
        <span className="visually-hidden">
          {active ? (largest ? ', largest first' : ', smallest first') : ', sort largest first'}
        </span>
      </button>
    </th>
  );
}

export function VarianceTable({ lines, totals, open, busy, showPlace = false, onApprove }: VarianceTableProps) {
  const [sort, setSort] = useState<VarianceSort>(DEFAULT_VARIANCE_SORT);
  const shown = sortByVariance(
    lines.filter((l) => l.status === 'counted' || l.status === 'approved'),
    sort,
  );
  const waiting = shown.filter((l) => l.status === 'counted').length;
  const onSort = (key: VarianceSortKey) => setSort((current) => nextVarianceSort(current, key));
  const money = useStoreMoney();
  return (
    <section className="card stocktake-variance" aria-labelledby="stocktake-variance-title">
      <div className="stocktake-variance-head">
        <h2 id="stocktake-variance-title" className="card-title">
          Review
        </h2>
        {shown.length > 0 ? (
          <span className="stocktake-muted" data-testid="variance-order">
            {waiting} to approve · {COLUMN_NAMES[sort.key].toLowerCase()}{' '}
            {sort.key === 'difference' ? 'in units' : 'in money'},{' '}
            {sort.direction === 'largest' ? 'largest' : 'smallest'} first
          </span>
        ) : null}
      </div>
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
                <SortHeader column="difference" sort={sort} onSort={onSort} />
                <SortHeader column="value" sort={sort} onSort={onSort} />
                <th scope="col" className="stocktake-table-action">
                  <span className="visually-hidden">Approve</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((line) => (
                <tr key={lineKey(line)} data-testid="variance-row">
                  <th scope="row">
                    {line.name}
                    {showPlace ? (
                      <span className="stocktake-variance-who" data-testid="variance-place">
                        at {line.locationName}
                      </span>
                    ) : null}
                    {line.countedBy ? (
                      <span className="stocktake-variance-who" data-testid="variance-who">
                        counted by {line.countedBy}
                        {line.approvedBy ? ` · approved by ${line.approvedBy}` : ''}
                      </span>
                    ) : null}
                  </th>
                  <td data-label="Expected">{line.expected ?? '—'}</td>
                  <td data-label="Counted">{line.counted}</td>
                  <td data-label="Difference" className={tone(line.difference)}>
                    {line.difference === null ? '—' : signed(line.difference)}
                  </td>
                  <td data-label="Value" className={tone(line.value)}>
                    {line.value === null ? '—' : signedMoney(line.value, money)}
                  </td>
                  <td className="stocktake-table-action">
                    {line.status === 'approved' ? (
                      <span className="badge badge-success">Approved</span>
                    ) : open ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-secondary"
                        disabled={busy.has(lineKey(line))}
                        aria-label={showPlace ? `Approve ${line.name} at ${line.locationName}` : `Approve ${line.name}`}
                        onClick={() => onApprove(line)}
                      >
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
                  {totals.value === null ? '—' : signedMoney(totals.value, money)}
                </td>
                <td className="stocktake-table-action" />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
