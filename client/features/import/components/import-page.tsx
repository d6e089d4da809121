// /inventory/import: the CSV import, step by step (import.machine.ts drives it).
import { useMachine } from '@xstate/react';
import { Link } from 'react-router-dom';
import { CSV_DELIMITERS, delimiterNamed, type CsvEncoding, type CsvFormat } from '../../../../shared/csv-format';
import type { ImportProblem } from '../../../../shared/import';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { importMachine, rowsToCommit, type ImportContext } from '../import.machine';
import { rejectedCsv } from '../rejected-csv';
import { MappingStep } from './mapping-step';
import { ProgressStep } from './progress-step';
import { ResultStep } from './result-step';
import { ReviewStep } from './review-step';
import { UploadStep } from './upload-step';
import { formatCount } from '../../../lib/format';
import { csvBlob } from '../../../lib/csv-blob';
import { saveBlob } from '../../../lib/save-file';
import '../import.css';

/** The file's own title of the column a problem is in. */
const columnNameOf = (context: ImportContext) => (problem: ImportProblem) => {
  if (!problem.column) return null;
  const index = context.mapping.indexOf(problem.column);
  return index >= 0 ? context.parsed!.header[index] || problem.column : problem.column;
};

function allProblems(context: ImportContext): ImportProblem[] {
  const rejected = context.results.filter((r) => r.outcome === 'rejected');
  return [
    ...(context.report?.problems ?? []),
    ...rejected.map((r) => ({ row: r.row, column: r.column ?? null, message: r.message ?? 'Rejected' })),
  ];
}

/** The rejected rows saved in a format; answers the encoding written (csv-blob.ts). */
function downloadRejected(context: ImportContext, format: CsvFormat): CsvEncoding {
  const text = rejectedCsv(
    context.parsed!,
    allProblems(context),
    columnNameOf(context),
    CSV_DELIMITERS[format.delimiter],
  );
  const { blob, encoding } = csvBlob(text, format);
  saveBlob(blob, context.fileName.replace(/\.[^.]+$/, '') + '-rejected.csv');
  return encoding;
}

export function ImportPage() {
  const [state, send] = useMachine(importMachine);
  const { context } = state;
  const counting = state.matches('committing') || state.matches('stopped') || state.matches('creatingCategories');
  const counts = () => {
    const tally = { created: 0, updated: 0, unchanged: 0, rejected: context.report?.problems.length ?? 0 };
    for (const r of context.results) tally[r.outcome]++;
    return tally;
  };

  let body;
  if (state.matches('checkingSaved') || state.matches('discarding')) body = <TruckLoader />;
  else if (state.matches('resumeOffer')) {
    const saved = context.saved!;
    body = (
      <section className="card import-step" aria-labelledby="resume-title">
        <h2 id="resume-title" className="card-title">
          An import did not finish
        </h2>
        <p>
          {formatCount(saved.results.length)} {saved.results.length === 1 ? 'row' : 'rows'} of{' '}
          <strong>{saved.fileName}</strong> {saved.results.length === 1 ? 'was' : 'were'} imported before it stopped.
        </p>
        <div className="import-actions">
          <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'DISCARD' })}>
            Forget it
          </button>
          <button type="button" className="btn btn-primary" onClick={() => send({ type: 'RESUME' })}>
            Resume import of {saved.fileName}
          </button>
        </div>
      </section>
    );
  } else if (state.matches('upload') || state.matches('parsing')) {
    body = <UploadStep busy={state.matches('parsing')} onFile={(file) => send({ type: 'FILE', file })} />;
  } else if (state.matches('mapping') || state.matches('checking')) {
    body = (
      <MappingStep
        fileName={context.fileName}
        parsed={context.parsed!}
        mapping={context.mapping}
        busy={state.matches('checking')}
        onMap={(column, field) => send({ type: 'MAP', column, field })}
        onCheck={() => send({ type: 'CHECK' })}
        onStartOver={() => send({ type: 'START_OVER' })}
      />
    );
  } else if (
    state.matches('review') ||
    (state.matches('creatingCategories') && context.batchesDone === 0 && !counting)
  ) {
    body = (
      <ReviewStep
        report={context.report!}
        columnName={columnNameOf(context)}
        toCommit={rowsToCommit(context).rows.length}
        categoriesConfirmed={context.categoriesConfirmed}
        busy={!state.matches('review')}
        error={context.error}
        onConfirmCategories={(value) => send({ type: 'CONFIRM_CATEGORIES', value })}
        onCommit={() => send({ type: 'COMMIT' })}
        onBack={() => send({ type: 'BACK' })}
      />
    );
  } else if (counting) {
    const total = rowsToCommit(context).rows.length;
    body = (
      <ProgressStep
        fileName={context.fileName}
        done={Math.min(total, context.results.length)}
        total={total}
        error={state.matches('stopped') ? context.error : null}
        onRetry={() => send({ type: 'RESUME' })}
      />
    );
  } else {
    body = (
      <ResultStep
        fileName={context.fileName}
        counts={counts()}
        fileFormat={{ delimiter: delimiterNamed(context.parsed!.delimiter), encoding: context.parsed!.encoding }}
        onDownloadRejected={(format) => downloadRejected(context, format)}
        onStartOver={() => send({ type: 'START_OVER' })}
      />
    );
  }

  return (
    <div className="page import-page">
      <header className="page-header">
        <div>
          <Link to="/inventory" className="back-link">
            <Icon name="arrow-left" size={16} /> Inventory
          </Link>
          <h1 className="page-title">Import items from CSV</h1>
          <p className="page-subtitle">
            Upload a spreadsheet, check every row, then import it. Nothing is written until you confirm.
          </p>
        </div>
      </header>
      {context.error && (state.matches('upload') || state.matches('mapping')) ? (
        <p className="import-warning" role="alert">
          {context.error}
        </p>
      ) : null}
      {body}
    </div>
  );
}
