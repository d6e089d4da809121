// Step 5: what the import did, and the rejected rows as a CSV to fix and import again.
import { Link } from 'react-router-dom';
import type { CsvEncoding, CsvFormat } from '../../../../shared/csv-format';
import { CsvExportButton } from '../../../components/csv-export-button';
import { formatCount } from '../../../lib/format';

export function ResultStep(props: {
  fileName: string;
  counts: { created: number; updated: number; unchanged: number; rejected: number };
  /** The imported file's own format: the rejected rows are written in it unless the store picked another. */
  fileFormat: CsvFormat;
  onDownloadRejected: (format: CsvFormat) => CsvEncoding;
  onStartOver: () => void;
}) {
  const { counts } = props;
  return (
    <section className="card import-step" aria-labelledby="result-title">
      <h2 id="result-title" className="card-title">
        Imported {props.fileName}
      </h2>
      <ul className="import-counts" aria-label="Import result">
        <li>
          <strong>{formatCount(counts.created)}</strong> created
        </li>
        <li>
          <strong>{formatCount(counts.updated)}</strong> updated
        </li>
        <li>
          <strong>{formatCount(counts.unchanged)}</strong> unchanged
        </li>
        <li className={counts.rejected ? 'import-count-bad' : ''}>
          <strong>{formatCount(counts.rejected)}</strong> rejected
        </li>
      </ul>
      <div className="import-actions">
        {counts.rejected ? (
          <CsvExportButton
            label="Download rejected rows (CSV)"
            busyLabel="Preparing..."
            defaultChoice="file"
            file={{ name: props.fileName, format: props.fileFormat }}
            onExport={async (format) => props.onDownloadRejected(format)}
          />
        ) : null}
        <button type="button" className="btn btn-secondary" onClick={props.onStartOver}>
          Import another file
        </button>
        <Link className="btn btn-primary" to="/inventory">
          Go to inventory
        </Link>
      </div>
    </section>
  );
}
