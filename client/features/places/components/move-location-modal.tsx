// Move Location: what it goes inside now, within its own site: the top level or another
// active location, never itself or a location inside it (the server refuses those too).
import { useEffect, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import type { Location, Site } from '../../../../shared/sites';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { placeFormMachine } from '../place-form.machine';
import { subtreeIds, treeRows } from '../place-tree';
import { PlaceField } from './place-field';

export function MoveLocationModal({
  site,
  location,
  locations,
  onClose,
  onSaved,
}: {
  site: Site;
  location: Location;
  locations: Location[];
  onClose: () => void;
  onSaved: (location: Location) => void;
}) {
  const [state, send] = useMachine(placeFormMachine);
  const [parentId, setParentId] = useState(location.parentId ?? '');
  const saving = state.matches('saving');
  const { refused, error } = state.context;
  const inside = subtreeIds(locations, location.id);
  const choices = treeRows(locations, site.id).filter((row) => !inside.has(row.location.id));

  useEffect(() => {
    if (state.matches('done') && state.context.saved) onSaved(state.context.saved as Location);
  }, [state, onSaved]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const to = parentId || null;
    if (to === location.parentId) return onClose();
    send({ type: 'SUBMIT', write: { kind: 'move-location', location, parentId: to } });
  };

  return (
    <Modal
      title={`Move ${location.name}`}
      description="Everything inside it moves with it. A location stays at its site."
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form="move-location-form" className="btn btn-primary" disabled={saving}>
            {saving ? 'Moving...' : 'Move'}
          </button>
        </>
      }
    >
      <form id="move-location-form" className="form-stack" onSubmit={submit} noValidate>
        <PlaceField id="move-parent" label="Put it inside" field="parent_id" refused={refused}>
          {(p) => (
            <select
              id="move-parent"
              className={p.className}
              aria-invalid={p.invalid || undefined}
              aria-describedby={p.describedBy}
              value={parentId}
              onChange={(e) => setParentId(e.target.value)}
              autoFocus
            >
              <option value="">{site.name} (top level)</option>
              {choices.map(({ location: l, depth }) => (
                <option key={l.id} value={l.id}>
                  {`${'\u2003'.repeat(depth + 1)}${l.name}`}
                </option>
              ))}
            </select>
          )}
        </PlaceField>
        {error ? <ErrorBox message={error} /> : null}
      </form>
    </Modal>
  );
}
