// Step 2: which item field each column fills (guessed from the header), and the first rows.
import { IMPORT_FIELDS, type ImportField } from '../../../../shared/import';
import { missingFields, type ColumnMapping } from '../column-mapping';
import type { ParsedFile } from '../parse-file';
import { FIELD_LABELS } from './field-labels';
import { formatCount } from '../../../lib/format';

const PREVIEW_ROWS = 5;
const DELIMITER_NAMES = { ',': 'comma', ';': 'semicolon', '\t': 'tab' } as const;
const ENCODING_NAMES = { 'utf-8': 'UTF-8', 'utf-8-bom': 'UTF-8 with BOM', 'windows-1252': 'Windows-1252' } as const;

export function MappingStep(props: {
  fileName: string;
  parsed: ParsedFile;
  mapping: ColumnMapping;
  busy: boolean;
  onMap: (column: number, field: ImportField | null) => void;
  onCheck: () => void;
  onStartOver: () => void;
}) {
  const { parsed, mapping } = props;
  const missing = missingFields(mapping);
  const preview = parsed.rows.slice(0, PREVIEW_ROWS);
  return (
    <section className="card import-step" aria-labelledby="mapping-title">
      <h2 id="mapping-title" className="card-title">
        Map columns
      </h2>
      <p className="muted">
        <strong>{props.fileName}</strong>: {formatCount(parsed.rows.length)} {parsed.rows.length === 1 ? 'row' : 'rows'}
        , {DELIMITER_NAMES[parsed.delimiter]}-separated, {ENCODING_NAMES[parsed.encoding]}. Rows match items by SKU: a
        known SKU updates the item, a new one creates it.
      </p>
      <div className="import-table-wrap">
        <table className="import-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              {parsed.header.map((title, i) => (
                <th scope="col" key={i}>
                  <span className="import-column-title">{title || `Column ${i + 1}`}</span>
                  <select
                    aria-label={`Field for column ${title || i + 1}`}
                    value={mapping[i] ?? ''}
                    onChange={(event) => props.onMap(i, (event.target.value || null) as ImportField | null)}
                  >
                    <option value="">(not imported)</option>
                    {IMPORT_FIELDS.map((field) => (
                      <option key={field} value={field}>
                        {FIELD_LABELS[field]}
                      </option>
                    ))}
                  </select>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.map((row) => (
              <tr key={row.row}>
                <th scope="row">{row.row}</th>
                {'cells' in row ? (
                  parsed.header.map((_, i) => <td key={i}>{row.cells[i] ?? ''}</td>)
                ) : (
                  <td colSpan={parsed.header.length} className="import-bad-cell">
                    {row.problem}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {mapping.includes('site') || mapping.includes('location') ? (
        <p className="muted import-place-note" data-testid="import-place-note">
          Rows that name a site or a location (its code or name) set the quantity there: the item&apos;s other locations
          keep theirs. A site alone means its default location; an unknown place rejects the row.
        </p>
      ) : null}
      {missing.length ? (
        <p className="import-warning" role="status">
          Choose a column for {missing.map((f) => FIELD_LABELS[f]).join(', ')}.
        </p>
      ) : null}
      <div className="import-actions">
        <button type="button" className="btn btn-secondary" onClick={props.onStartOver}>
          Choose another file
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={props.onCheck}
          disabled={missing.length > 0 || props.busy}
        >
          {props.busy ? 'Checking…' : 'Check rows'}
        </button>
      </div>
    </section>
  );
}
