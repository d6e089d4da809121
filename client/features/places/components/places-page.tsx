// Sites and locations (/settings/places, those who manage settings): every site as a card with
// its tree of locations, Add Site, and per site and location the forms to add, edit and move
// and the archive and restore actions. Changes made elsewhere arrive live; a refused archive
// ("Back room still holds 14 units of 3 items: move them first") shows where it was asked.
import { useCallback, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import type { Location, Site } from '../../../../shared/sites';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId, type WriteState } from '../../../lib/live-query.machine';
import { toast } from '../../../lib/toasts';
import { placeOf, placesMachine, type PlacesWrite } from '../places.machine';
import { LocationFormModal } from './location-form-modal';
import { MoveLocationModal } from './move-location-modal';
import { SiteCard, type SiteCardActions } from './site-card';
import { SiteFormModal } from './site-form-modal';
import '../places.css';

type Dialog =
  | { kind: 'none' }
  | { kind: 'site'; editing: Site | null }
  | { kind: 'location'; site: Site; editing: Location | null; parentId: string | null }
  | { kind: 'move'; site: Site; location: Location };

export function PlacesPage() {
  const places = useActorRef(placesMachine, { input: { params: null } });
  const failed = useSelector(places, (s) => s.matches('error'));
  const data = useSelector(places, (s) => s.context.data);
  const error = useSelector(places, (s) => s.context.error);
  const writes = useSelector(places, (s) => s.context.writes);
  const [showArchived, setShowArchived] = useState(false);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);
  const saved = useCallback(
    (place: Site | Location) => {
      toast.success(`${place.name} saved`);
      setDialog({ kind: 'none' });
      places.send({ type: 'REFETCH' });
    },
    [places],
  );

  const refusals = new Map<string, [string, WriteState<PlacesWrite>]>();
  const busy = new Set<string>();
  for (const [id, state] of Object.entries(writes)) {
    if (state.status === 'failed') refusals.set(placeOf(state.write), [id, state]);
    else busy.add(placeOf(state.write));
  }
  const actions: SiteCardActions = {
    editSite: (site) => setDialog({ kind: 'site', editing: site }),
    addLocation: (site, parentId) => setDialog({ kind: 'location', site, editing: null, parentId }),
    editLocation: (site, location) => setDialog({ kind: 'location', site, editing: location, parentId: null }),
    moveLocation: (site, location) => setDialog({ kind: 'move', site, location }),
    write: (write) => {
      // A new try replaces the place's last refusal.
      const old = refusals.get(placeOf(write));
      if (old) places.send({ type: 'DISMISS_WRITE', id: old[0] });
      places.send({ type: 'WRITE', id: newWriteId(), write });
    },
    dismiss: (id) => places.send({ type: 'DISMISS_WRITE', id }),
  };

  const sites = data?.sites ?? [];
  const locations = data?.locations ?? [];
  const active = sites.filter((s) => !s.archivedAt);
  const shown = showArchived ? [...active, ...sites.filter((s) => s.archivedAt)] : active;
  const archivedCount = sites.length - active.length + locations.filter((l) => l.archivedAt).length;

  return (
    <div className="page places-page">
      <Link to="/settings" className="btn btn-ghost back-link">
        <Icon name="arrow-left" size={16} /> Settings
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title">Sites and locations</h1>
          <p className="page-subtitle">
            {data
              ? `${active.length} ${active.length === 1 ? 'site' : 'sites'} · where stock is kept: areas, shelves and bins`
              : 'Where stock is kept: areas, shelves and bins'}
          </p>
        </div>
        <div className="page-actions">
          <label className="places-archived-toggle">
            <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />
            Show archived{archivedCount ? ` (${archivedCount})` : ''}
          </label>
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'site', editing: null })}>
            <Icon name="plus" size={18} /> Add Site
          </button>
        </div>
      </header>

      {failed ? (
        <ErrorBox
          title="Failed to load sites and locations"
          message={error ?? 'Failed to load sites and locations'}
          onRetry={() => places.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading sites..." fullScreen={false} /> : null}
      {data && shown.length === 0 ? (
        <EmptyState icon="home" title="No sites" text="Add a store or a warehouse to keep stock there." />
      ) : null}
      <div className="site-list">
        {shown.map((site) => (
          <SiteCard
            key={site.id}
            site={site}
            locations={locations}
            showArchived={showArchived}
            refusals={refusals}
            busy={busy}
            actions={actions}
          />
        ))}
      </div>

      {dialog.kind === 'site' ? (
        <SiteFormModal editing={dialog.editing} locations={locations} onClose={close} onSaved={saved} />
      ) : null}
      {dialog.kind === 'location' ? (
        <LocationFormModal
          site={dialog.site}
          editing={dialog.editing}
          parentId={dialog.parentId}
          locations={locations}
          onClose={close}
          onSaved={saved}
        />
      ) : null}
      {dialog.kind === 'move' ? (
        <MoveLocationModal
          site={dialog.site}
          location={dialog.location}
          locations={locations}
          onClose={close}
          onSaved={saved}
        />
      ) : null}
    </div>
  );
}
