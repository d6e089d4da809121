// Add Location / Edit Location: name, code (unique in the site), the barcode of its shelf
// label if it has one and, when adding, what it goes inside (the site's top level or one of
// its active locations).
import { useEffect, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import type { Location, Site } from '../../../../shared/sites';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import type { LocationBody } from '../api';
import { placeFormMachine } from '../place-form.machine';
import { treeRows } from '../place-tree';
import { PlaceField } from './place-field';

export function LocationFormModal({
  site,
  editing,
  parentId,
  locations,
  onClose,
  onSaved,
}: {
  site: Site;
  editing: Location | null;
  /** When adding: the location it goes inside at first (null: the top level). */
  parentId: string | null;
  locations: Location[];
  onClose: () => void;
  onSaved: (location: Location) => void;
}) {
  const [state, send] = useMachine(placeFormMachine);
  const [form, setForm] = useState({
    name: editing?.name ?? '',
    code: editing?.code ?? '',
    barcode: editing?.barcode ?? '',
    parentId: parentId ?? '',
  });
  const saving = state.matches('saving');
  const { refused, error } = state.context;
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  useEffect(() => {
    if (state.matches('done') && state.context.saved) onSaved(state.context.saved as Location);
  }, [state, onSaved]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim()) return send({ type: 'INVALID', refused: { field: 'name', message: 'name is required' } });
    if (!form.code.trim()) return send({ type: 'INVALID', refused: { field: 'code', message: 'code is required' } });
    const body = { name: form.name.trim(), code: form.code.trim(), barcode: form.barcode.trim() || null };
    if (!editing) {
      send({
        type: 'SUBMIT',
        write: { kind: 'create-location', body: { ...body, site_id: site.id, parent_id: form.parentId || null } },
      });
      return;
    }
    const changed: LocationBody = {};
    if (body.name !== editing.name) changed.name = body.name;
    if (body.code !== editing.code) changed.code = body.code;
    if (body.barcode !== editing.barcode) changed.barcode = body.barcode;
    if (Object.keys(changed).length === 0) return onClose();
    send({ type: 'SUBMIT', write: { kind: 'edit-location', location: editing, body: changed } });
  };

  return (
    <Modal
      title={editing ? 'Edit Location' : 'Add Location'}
      description={
        editing ? `A location at ${site.name}. Move it with Move.` : `An area, shelf or bin at ${site.name}.`
      }
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form="location-form" className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving...' : editing ? 'Save Changes' : 'Add Location'}
          </button>
        </>
      }
    >
      <form id="location-form" className="form-stack" onSubmit={submit} noValidate>
        <PlaceField id="location-name" label="Name" field="name" refused={refused}>
          {(p) => (
            <input
              id="location-name"
              className={p.className}
              aria-invalid={p.invalid || undefined}
              aria-describedby={p.describedBy}
              value={form.name}
              onChange={set('name')}
              maxLength={100}
              placeholder="e.g. Back room, Shelf 2, Bin 14"
              autoFocus
            />
          )}
        </PlaceField>
        <div className="field-row">
          <PlaceField id="location-code" label="Code" field="code" refused={refused} hint="Unique at this site">
            {(p) => (
              <input
                id="location-code"
                className={`${p.className} place-code-input`}
                aria-invalid={p.invalid || undefined}
                aria-describedby={p.describedBy}
                value={form.code}
                onChange={set('code')}
                maxLength={32}
                placeholder="e.g. B-2"
                autoCapitalize="characters"
                spellCheck={false}
              />
            )}
          </PlaceField>
          <PlaceField id="location-barcode" label="Label barcode" field="barcode" refused={refused} optional>
            {(p) => (
              <input
                id="location-barcode"
                className={`${p.className} place-code-input`}
                aria-invalid={p.invalid || undefined}
                aria-describedby={p.describedBy}
                value={form.barcode}
                onChange={set('barcode')}
                maxLength={64}
                spellCheck={false}
                autoComplete="off"
              />
            )}
          </PlaceField>
        </div>
        {editing ? null : (
          <PlaceField id="location-parent" label="Inside" field="parent_id" refused={refused}>
            {(p) => (
              <select
                id="location-parent"
                className={p.className}
                aria-invalid={p.invalid || undefined}
                aria-describedby={p.describedBy}
                value={form.parentId}
                onChange={set('parentId')}
              >
                <option value="">{site.name} (top level)</option>
                {treeRows(locations, site.id).map(({ location, depth }) => (
                  <option key={location.id} value={location.id}>
                    {`${'\u2003'.repeat(depth + 1)}${location.name}`}
                  </option>
                ))}
              </select>
            )}
          </PlaceField>
        )}
        {error ? <ErrorBox message={error} /> : null}
      </form>
    </Modal>
  );
}
