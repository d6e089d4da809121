// Add Site / Edit Site: name, code, time zone (an IANA zone, offered from the browser's list),
// address and, when editing, the location stock goes to when nobody names one.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import { isTimeZone, type Location, type Site } from '../../../../shared/sites';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import type { SiteBody } from '../api';
import { placeFormMachine } from '../place-form.machine';
import { pathText } from '../place-tree';
import { PlaceField } from './place-field';

/** The zones this browser knows (Intl leaves out UTC, which stores use most). */
function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((z) => z !== 'UTC')];
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function SiteFormModal({
  editing,
  locations,
  onClose,
  onSaved,
}: {
  editing: Site | null;
  locations: Location[];
  onClose: () => void;
  onSaved: (site: Site) => void;
}) {
  const [state, send] = useMachine(placeFormMachine);
  const [form, setForm] = useState({
    name: editing?.name ?? '',
    code: editing?.code ?? '',
    timeZone: editing?.timeZone ?? browserZone(),
    address: editing?.address ?? '',
    defaultLocationId: editing?.defaultLocationId ?? '',
  });
  const zones = useMemo(timeZones, []);
  const saving = state.matches('saving');
  const { refused, error } = state.context;
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const choices = editing ? locations.filter((l) => l.siteId === editing.id && !l.archivedAt) : [];

  useEffect(() => {
    if (state.matches('done') && state.context.saved) onSaved(state.context.saved as Site);
  }, [state, onSaved]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim()) return send({ type: 'INVALID', refused: { field: 'name', message: 'name is required' } });
    if (!form.code.trim()) return send({ type: 'INVALID', refused: { field: 'code', message: 'code is required' } });
    if (!isTimeZone(form.timeZone))
      return send({
        type: 'INVALID',
        refused: {
          field: 'time_zone',
          message: 'time_zone: Choose a time zone from the list, for example Europe/Paris',
        },
      });
    const body: SiteBody = {
      name: form.name.trim(),
      code: form.code.trim(),
      time_zone: form.timeZone.trim(),
      address: form.address.trim(),
    };
    if (!editing) {
      send({
        type: 'SUBMIT',
        write: {
          kind: 'create-site',
          body: { ...body, name: body.name!, code: body.code!, time_zone: body.time_zone! },
        },
      });
      return;
    }
    const changed: SiteBody = {};
    if (body.name !== editing.name) changed.name = body.name;
    if (body.code !== editing.code) changed.code = body.code;
    if (body.time_zone !== editing.timeZone) changed.time_zone = body.time_zone;
    if (body.address !== editing.address) changed.address = body.address;
    if (form.defaultLocationId && form.defaultLocationId !== editing.defaultLocationId)
      changed.default_location_id = form.defaultLocationId;
    if (Object.keys(changed).length === 0) return onClose();
    send({ type: 'SUBMIT', write: { kind: 'edit-site', site: editing, body: changed } });
  };

  return (
    <Modal
      title={editing ? 'Edit Site' : 'Add Site'}
      description={
        editing
          ? 'A site is a store or a warehouse: its name, code and time zone.'
          : 'A store or a warehouse. Its first location becomes where its stock goes by default.'
      }
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form="site-form" className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving...' : editing ? 'Save Changes' : 'Add Site'}
          </button>
        </>
      }
    >
      <form id="site-form" className="form-stack" onSubmit={submit} noValidate>
        <PlaceField id="site-name" label="Name" field="name" refused={refused}>
          {(p) => (
            <input
              id="site-name"
              className={p.className}
              aria-invalid={p.invalid || undefined}
              aria-describedby={p.describedBy}
              value={form.name}
              onChange={set('name')}
              maxLength={100}
              placeholder="e.g. Harbour warehouse"
              autoFocus
            />
          )}
        </PlaceField>
        <div className="field-row">
          <PlaceField id="site-code" label="Code" field="code" refused={refused} hint="Short, on labels and lists">
            {(p) => (
              <input
                id="site-code"
                className={`${p.className} place-code-input`}
                aria-invalid={p.invalid || undefined}
                aria-describedby={p.describedBy}
                value={form.code}
                onChange={set('code')}
                maxLength={32}
                placeholder="e.g. HW"
                autoCapitalize="characters"
                spellCheck={false}
              />
            )}
          </PlaceField>
          <PlaceField id="site-time-zone" label="Time zone" field="time_zone" refused={refused}>
            {(p) => (
              <>
                <input
                  id="site-time-zone"
                  className={p.className}
                  aria-invalid={p.invalid || undefined}
                  aria-describedby={p.describedBy}
                  value={form.timeZone}
                  onChange={set('timeZone')}
                  list="site-time-zones"
                  maxLength={64}
                  spellCheck={false}
                  autoComplete="off"
                />
                <datalist id="site-time-zones">
                  {zones.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </>
            )}
          </PlaceField>
        </div>
        <PlaceField id="site-address" label="Address" field="address" refused={refused} optional>
          {(p) => (
            <textarea
              id="site-address"
              className={p.className}
              aria-invalid={p.invalid || undefined}
              aria-describedby={p.describedBy}
              value={form.address}
              onChange={set('address')}
              maxLength={500}
              rows={2}
            />
          )}
        </PlaceField>
        {editing && choices.length > 0 ? (
          <PlaceField
            id="site-default-location"
            label="Default location"
            field="default_location_id"
            refused={refused}
            hint="Where stock goes at this site when nobody names a location"
          >
            {(p) => (
              <select
                id="site-default-location"
                className={p.className}
                aria-invalid={p.invalid || undefined}
                aria-describedby={p.describedBy}
                value={form.defaultLocationId}
                onChange={set('defaultLocationId')}
              >
                {form.defaultLocationId ? null : <option value="">None yet</option>}
                {choices.map((l) => (
                  <option key={l.id} value={l.id}>
                    {pathText(locations, l.id)}
                  </option>
                ))}
              </select>
            )}
          </PlaceField>
        ) : null}
        {error ? <ErrorBox message={error} /> : null}
      </form>
    </Modal>
  );
}
