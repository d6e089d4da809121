// Location labels (/inventory/labels?site={id} or ?location={id}, from Sites and locations):
// the locations with a tick each (all ticked), indented as their tree, the label stock, a
// preview of the sheets, and Print, which opens the browser's print dialog with only the sheets.
import { useId } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { LABEL_PRESETS, labelsPerPage, presetById, type LabelPreset, type LabelPresetId } from '../label-presets';
import type { LocationSource } from '../location-labels';
import { locationLabelsMachine, selectedLabels } from '../location-labels.machine';
import { LocationLabelSheet } from './location-label-sheet';
import '../labels.css';

/** The @page rule of the chosen stock: exact page size, no printer margin. */
const pageRule = (preset: LabelPreset) => `@page { size: ${preset.page.width}mm ${preset.page.height}mm; margin: 0; }`;

export function LocationLabelsPage({ source }: { source: LocationSource }) {
  const labels = useActorRef(locationLabelsMachine, { input: { source } });
  const snapshot = useSelector(labels, (s) => s);
  const { title, labels: all, codes, selected, presetId, error } = snapshot.context;
  const preset = presetById(presetId);
  const chosen = selectedLabels(snapshot.context);
  const ready = snapshot.matches('ready');
  const presetFieldId = useId();
  const allTicked = all.length > 0 && selected.length === all.length;
  const sheets = Math.ceil(chosen.length / labelsPerPage(preset));
  const count = (n: number) => `${n} ${n === 1 ? 'location' : 'locations'}`;

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Print location labels</h1>
          <p className="page-subtitle">
            {title ? `${title} · ` : ''}
            {ready
              ? `${chosen.length} of ${count(all.length)} · ${sheets} ${sheets === 1 ? 'page' : 'pages'}`
              : 'Loading locations...'}
          </p>
        </div>
        <div className="page-actions">
          <Link to="/settings/places" className="btn btn-secondary">
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
      {ready && all.length === 0 ? (
        <EmptyState icon="tag" title="No locations to label" text="This site has no active locations yet." />
      ) : null}

      {ready && all.length > 0 ? (
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
              <legend>Locations</legend>
              <label className="labels-check">
                <input
                  type="checkbox"
                  checked={allTicked}
                  onChange={(event) => labels.send({ type: 'SELECT_ALL', selected: event.target.checked })}
                />
                <span>Select all</span>
              </label>
              <ul className="labels-item-list">
                {all.map((label) => (
                  <li key={label.id}>
                    <label
                      className="labels-check labels-check-depth"
                      style={{ '--depth': label.depth } as React.CSSProperties}
                    >
                      <input
                        type="checkbox"
                        checked={selected.includes(label.id)}
                        onChange={() => labels.send({ type: 'TOGGLE', id: label.id })}
                      />
                      <span className="labels-check-text">
                        <span>{label.name}</span>
                        <small>{label.text}</small>
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
              <LocationLabelSheet preset={preset} labels={chosen} codes={codes} />
            ) : (
              <p>Tick at least one location to print its label.</p>
            )}
          </section>
        </div>
      ) : null}

      {/* What the printer gets: a direct child of body, so print CSS can hide everything else. */}
      {ready && chosen.length > 0
        ? createPortal(
            <div className="label-print-root">
              <style>{pageRule(preset)}</style>
              <LocationLabelSheet preset={preset} labels={chosen} codes={codes} />
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
