// Step 3: the dry run's answer: what would be created, updated or left alone, every bad
// row with its row number, column and message, and the new categories to confirm.
import type { DryRunReport, ImportProblem } from '../../../../shared/import';
import { formatCount } from '../../../lib/format';

export function ReviewStep(props: {
  report: DryRunReport;
  columnName: (problem: ImportProblem) => string | null;
  toCommit: number;
  categoriesConfirmed: boolean;
  busy: boolean;
  error: string | null;
  onConfirmCategories: (value: boolean) => void;
  onCommit: () => void;
  onBack: () => void;
}) {
  const { report } = props;
  const blocked = (report.newCategories.length > 0 && !props.categoriesConfirmed) || props.toCommit === 0;
  return (
    <section className="card import-step" aria-labelledby="review-title">
      <h2 id="review-title" className="card-title">
        Check
      </h2>
      <ul className="import-counts">
        <li>
          <strong>{formatCount(report.create)}</strong> to create
        </li>
        <li>
          <strong>{formatCount(report.update)}</strong> to update
        </li>
        <li>
          <strong>{formatCount(report.unchanged)}</strong> unchanged
        </li>
        <li className={report.problems.length ? 'import-count-bad' : ''}>
          <strong>{formatCount(report.problems.length)}</strong> with problems (not imported)
        </li>
      </ul>
      {report.problems.length ? (
        <div className="import-table-wrap import-problems">
          <table className="import-table" aria-label="Rows with problems">
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {report.problems.map((p) => (
                <tr key={p.row}>
                  <th scope="row">{p.row}</th>
                  <td>{props.columnName(p) ?? '—'}</td>
                  <td>{p.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>Every row is fine.</p>
      )}
      {report.newCategories.length ? (
        <fieldset className="import-categories">
          <legend>New categories</legend>
          <p>
            These categories do not exist yet: <strong>{report.newCategories.join(', ')}</strong>.
          </p>
          <label>
            <input
              type="checkbox"
              checked={props.categoriesConfirmed}
              onChange={(event) => props.onConfirmCategories(event.target.checked)}
            />{' '}
            Create{' '}
            {report.newCategories.length === 1 ? 'this category' : `these ${report.newCategories.length} categories`}
          </label>
        </fieldset>
      ) : null}
      {props.error ? (
        <p className="import-warning" role="alert">
          {props.error}
        </p>
      ) : null}
      <div className="import-actions">
        <button type="button" className="btn btn-secondary" onClick={props.onBack} disabled={props.busy}>
          Back to columns
        </button>
        <button type="button" className="btn btn-primary" onClick={props.onCommit} disabled={blocked || props.busy}>
          Import {formatCount(props.toCommit)} {props.toCommit === 1 ? 'row' : 'rows'}
        </button>
      </div>
    </section>
  );
}
