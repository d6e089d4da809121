// The labels page (/inventory/labels?category={id} or ?items={id},{id}): the items with a
// tick each (all ticked), the label stock, a preview of the sheets, and Print, which opens
// the browser's print dialog with only the sheets on the page. With ?site= or ?location=,
// the labels of locations instead (location-labels-page.tsx).
import { useId } from 'react';
import { createPortal } from 'react-dom';
import { Link, useSearchParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { labelSourceFrom, type LabelSource } from '../api';
import { LABEL_PRESETS, labelsPerPage, presetById, type LabelPreset, type LabelPresetId } from '../label-presets';
import { labelsMachine, selectedItems } from '../labels.machine';
import { LabelSheet } from './label-sheet';
import { locationSourceFrom } from '../location-labels';
import { LocationLabelsPage } from './location-labels-page';
import '../labels.css';

export function LabelsPage() {
  const [search] = useSearchParams();
  const source = labelSourceFrom(search);
  const locations = locationSourceFrom(search);
  if (locations) return <LocationLabelsPage key={search.toString()} source={locations} />;
  if (!source) {
    return (
      <div className="page">
        <EmptyState icon="tag" title="No items chosen" text="Open a category or an item and choose Print labels.">
          <Link to="/inventory" className="btn btn-primary">
            Go to Inventory
          </Link>
        </EmptyState>
      </div>
    );
  }
  return <Labels key={search.toString()} source={source} />;
}

/** The @page rule of the chosen stock: exact page size, no printer margin. */
const pageRule = (preset: LabelPreset) => `@page { size: ${preset.page.width}mm ${preset.page.height}mm; margin: 0; }`;

function Labels({ source }: { source: LabelSource }) {
  const labels = useActorRef(labelsMachine, { input: { source, origin: window.location.origin } });
  const snapshot = useSelector(labels, (s) => s);
  const { title, items, codes, selected, presetId, error } = snapshot.context;
  const preset = presetById(presetId);
  const chosen = selectedItems(snapshot.context);
  const ready = snapshot.matches('ready');
  const presetFieldId = useId();
  const allTicked = items.length > 0 && selected.length === items.length;
  const sheets = Math.ceil(chosen.length / labelsPerPage(preset));
  const back =
    source.kind === 'category'
      ? `/inventory/category/${encodeURIComponent(source.categoryId)}`
      : source.ids.length === 1
        ? `/inventory/${encodeURIComponent(source.ids[0]!)}`
        : '/inventory';

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Print labels</h1>
          <p className="page-subtitle">
            {title ? `${title} · ` : ''}
            {ready
              ? `${chosen.length} of ${items.length} ${items.length === 1 ? 'item' : 'items'} · ${sheets} ${sheets === 1 ? 'page' : 'pages'}`
              : 'Loading items...'}
          </p>
        </div>
        <div className="page-actions">
          <Link to={back} className="btn btn-secondary">
            <Icon name="arrow-left" size={18} /> Back
          </Link>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!ready || chosen.length === 0}
            onClick={() => window.print()}
          >
            <Icon name="printer" size={18} /> Print
          </button>
        </div>
      </header>

      {snapshot.matches('loading') || snapshot.matches('drawing') ? (
        <TruckLoader label="Preparing labels..." fullScreen={false} />
      ) : null}
      {snapshot.matches('failed') ? (
        <ErrorBox
          title="Could not prepare the labels"
          message={error ?? ''}
          onRetry={() => labels.send({ type: 'RETRY' })}
        />
      ) : null}
      {ready && items.length === 0 ? (
        <EmptyState icon="tag" title="No items to label" text="These items no longer exist." />
      ) : null}

      {ready && items.length > 0 ? (
        <div className="labels-layout">
          <div className="card labels-panel">
            <div className="field">
              <label htmlFor={presetFieldId}>Label stock</label>
              <select
                id={presetFieldId}
                className="input"
                value={presetId}
                onChange={(event) => labels.send({ type: 'SET_PRESET', presetId: event.target.value as LabelPresetId })}
              >
                {LABEL_PRESETS.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="labels-items">
              <legend>Items</legend>
              <label className="labels-check">
                <input
                  type="checkbox"
                  checked={allTicked}
                  onChange={(event) => labels.send({ type: 'SELECT_ALL', selected: event.target.checked })}
                />
                <span>Select all</span>
              </label>
              <ul className="labels-item-list">
                {items.map((item) => (
                  <li key={item.id}>
                    <label className="labels-check">
                      <input
                        type="checkbox"
                        checked={selected.includes(item.id)}
                        onChange={() => labels.send({ type: 'TOGGLE', id: item.id })}
                      />
                      <span className="labels-check-text">
                        <span>{item.name}</span>
                        <small>{item.barcode || item.sku}</small>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          </div>
          <section
            className="labels-preview"
            aria-label="Preview"
            style={{ ['--preview-zoom' as string]: preset.columns === 1 ? 1.6 : 0.75 }}
          >
            {chosen.length > 0 ? (
              <LabelSheet preset={preset} items={chosen} codes={codes} />
            ) : (
              <p>Tick at least one item to print its label.</p>
            )}
          </section>
        </div>
      ) : null}

      {/* What the printer gets: a direct child of body, so print CSS can hide everything else. */}
      {ready && chosen.length > 0
        ? createPortal(
            <div className="label-print-root">
              <style>{pageRule(preset)}</style>
              <LabelSheet preset={preset} items={chosen} codes={codes} />
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
