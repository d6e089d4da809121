// What changed between two moments: items created, deleted and changed, with
// field diffs and net stock movement, grouped by category, totals, and a CSV export.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { ChangesReport } from '../../../../shared/inventory-history';
import type { MoneyFormat } from '../../../../shared/money-format';
import { historyApi } from '../../../components/history-api';
import { formatMoment } from '../../../components/as-of';
import { ErrorBox } from '../../../components/error-box';
import { TruckLoader } from '../../../components/truck-loader';
import type { CsvFormat } from '../../../../shared/csv-format';
import { CsvExportButton } from '../../../components/csv-export-button';
import { api } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { encodingOfDownload, withCsvFormat } from '../../../lib/csv-export-format';
import { saveBlob } from '../../../lib/save-file';

const WEEK_MS = 7 * 86_400_000;
const defaultFrom = () => new Date(Date.now() - WEEK_MS).toISOString();

const show = (v: unknown, field: string, money: MoneyFormat) =>
  v === null || v === undefined || v === '' ? '—' : field === 'price' ? formatPrice(Number(v), money) : String(v);

export function ChangesPage() {
  const [params, setParams] = useSearchParams();
  const money = useStoreMoney();
  // Opened without ?from= (a bookmark, a typed address), the report starts a week before the
  // moment the page opened. Fixed once at mount: recomputed on each render it was a new
  // moment every time, so each answer's render asked again, about 60 requests a second.
  const [weekAgo] = useState(defaultFrom);
  const from = params.get('from') ?? weekAgo;
  const to = params.get('to') ?? undefined;
  const [report, setReport] = useState<ChangesReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // An answer for moments the user has since changed is not shown.
    let current = true;
    setReport(null);
    setError(null);
    historyApi.changes(from, to).then(
      (answer) => current && setReport(answer),
      (e: unknown) => current && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      current = false;
    };
  }, [from, to]);
  const exportCsv = async (format: CsvFormat) => {
    const query = `from=${encodeURIComponent(from)}${to ? `&to=${encodeURIComponent(to)}` : ''}`;
    const blob = await api.blob(withCsvFormat(`/changes/export.csv?${query}`, format));
    saveBlob(blob, 'stockroom-changes.csv');
    return encodingOfDownload(blob, format.encoding);
  };
  const toLocal = (iso: string) =>
    new Date(Date.parse(iso) - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  return (
    <div className="page">
      <Link to={`/inventory?asOf=${encodeURIComponent(from)}`} className="btn btn-ghost back-link">
        ← Back to the store as of {formatMoment(from)}
      </Link>
      <h1 className="page-title">What changed</h1>
      <div className="as-of-control">
        <label className="as-of-picker">
          <span>From</span>
          <input
            type="datetime-local"
            value={toLocal(from)}
            onChange={(e) => setParams((p) => (p.set('from', new Date(e.target.value).toISOString()), p))}
          />
        </label>
        <label className="as-of-picker">
          <span>To</span>
          <input
            type="datetime-local"
            value={to ? toLocal(to) : ''}
            onChange={(e) =>
              setParams(
                (p) => (e.target.value ? p.set('to', new Date(e.target.value).toISOString()) : p.delete('to'), p),
              )
            }
          />
        </label>
        <span>{to ? '' : 'to now'}</span>
        <CsvExportButton label="Export CSV" onExport={exportCsv} disabled={!report} />
      </div>
      {error ? <ErrorBox title="Failed to compare" message={error} /> : null}
      {!report && !error ? <TruckLoader label="Comparing..." fullScreen={false} /> : null}
      {report ? (
        <>
          <p data-testid="changes-totals">
            {report.totals.created} created · {report.totals.deleted} deleted · {report.totals.changed} changed · net
            stock {report.totals.stockMovement >= 0 ? '+' : ''}
            {report.totals.stockMovement}
          </p>
          {report.groups.map((g) => (
            <section key={g.categoryId} className="card detail-card">
              <h2 className="card-title">
                {g.category}{' '}
                <span className="muted">
                  ({g.created} created, {g.deleted} deleted, {g.changed} changed, stock{' '}
                  {g.stockMovement >= 0 ? '+' : ''}
                  {g.stockMovement})
                </span>
              </h2>
              <table className="as-of-table">
                <thead>
                  <tr>
                    <th>Item</th>
                    <th>Status</th>
                    <th>Changes</th>
                    <th>Stock</th>
                  </tr>
                </thead>
                <tbody>
                  {g.items.map((c) => (
                    <tr key={c.itemId}>
                      <td>{c.name}</td>
                      <td>{c.status}</td>
                      <td>
                        {c.diffs
                          .map((d) => `${d.field}: ${show(d.from, d.field, money)} → ${show(d.to, d.field, money)}`)
                          .join('; ') || '—'}
                      </td>
                      <td>
                        {c.stockMovement >= 0 ? '+' : ''}
                        {c.stockMovement}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </>
      ) : null}
    </div>
  );
}
