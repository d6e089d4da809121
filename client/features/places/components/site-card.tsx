// One site: its name, code, time zone and address, Print labels (its locations'), and its
// locations as a tree (indented by depth), each with its code, label barcode and Default
// badge, and a menu to add inside, edit, move, make default, print its labels, see its
// activity, archive or restore. A refused archive says why right there.
import { Link, useNavigate } from 'react-router-dom';
import type { Location, Site } from '../../../../shared/sites';
import { ActionMenu, type MenuAction } from '../../../components/action-menu';
import { Icon } from '../../../components/icons';
import type { WriteState } from '../../../lib/live-query.machine';
import type { PlacesWrite } from '../places.machine';
import { treeRows } from '../place-tree';
import { activityOf, labelsOf } from '../place-links';

/** What the page does for a site card's buttons and menus. */
export interface SiteCardActions {
  editSite(site: Site): void;
  addLocation(site: Site, parentId: string | null): void;
  editLocation(site: Site, location: Location): void;
  moveLocation(site: Site, location: Location): void;
  write(write: PlacesWrite): void;
  dismiss(writeId: string): void;
}

/** A refused write about this place, shown under it until dismissed. */
function Refusal({
  refusal,
  onDismiss,
}: {
  refusal: [string, WriteState<PlacesWrite>] | undefined;
  onDismiss: (id: string) => void;
}) {
  if (!refusal) return null;
  const [id, state] = refusal;
  return (
    <div className="place-refusal" role="alert" data-testid="place-refusal">
      <Icon name="alert" size={16} className="place-refusal-icon" />
      <span>{state.error}</span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => onDismiss(id)}>
        Dismiss
      </button>
    </div>
  );
}

export function SiteCard({
  site,
  locations,
  showArchived,
  refusals,
  busy,
  actions,
}: {
  site: Site;
  locations: Location[];
  showArchived: boolean;
  /** Refused writes, by the place they were about. */
  refusals: Map<string, [string, WriteState<PlacesWrite>]>;
  /** Places with a write in flight. */
  busy: Set<string>;
  actions: SiteCardActions;
}) {
  const navigate = useNavigate();
  const rows = treeRows(locations, site.id, showArchived);
  const archived = site.archivedAt !== null;
  const hasActive = rows.some(({ location }) => !location.archivedAt);
  const siteMenu: MenuAction[] = [
    { label: 'Edit site', icon: 'edit', onSelect: () => actions.editSite(site) },
    { label: 'Activity', icon: 'list', onSelect: () => navigate(activityOf(site)) },
    archived
      ? { label: 'Restore site', icon: 'history', onSelect: () => actions.write({ kind: 'restore-site', site }) }
      : {
          label: 'Archive site',
          icon: 'trash',
          danger: true,
          onSelect: () => actions.write({ kind: 'archive-site', site }),
        },
  ];
  const locationMenu = (location: Location): MenuAction[] => {
    const activity: MenuAction = {
      label: 'Activity',
      icon: 'list',
      onSelect: () => navigate(activityOf(site, location)),
    };
    if (location.archivedAt)
      return [
        { label: 'Restore', icon: 'history', onSelect: () => actions.write({ kind: 'restore-location', location }) },
        activity,
      ];
    const menu: MenuAction[] = [
      { label: 'Add inside', icon: 'plus', onSelect: () => actions.addLocation(site, location.id) },
      { label: 'Edit', icon: 'edit', onSelect: () => actions.editLocation(site, location) },
      { label: 'Move', icon: 'arrow-right', onSelect: () => actions.moveLocation(site, location) },
      { label: 'Print labels', icon: 'printer', onSelect: () => navigate(labelsOf(site, location)) },
      activity,
    ];
    if (site.defaultLocationId !== location.id)
      menu.push({
        label: 'Make default',
        icon: 'check-circle',
        onSelect: () => actions.write({ kind: 'edit-site', site, body: { default_location_id: location.id } }),
      });
    menu.push({
      label: 'Archive',
      icon: 'trash',
      danger: true,
      onSelect: () => actions.write({ kind: 'archive-location', location }),
    });
    return menu;
  };

  return (
    <section
      className={archived ? 'card site-card site-card-archived' : 'card site-card'}
      aria-labelledby={`site-${site.id}`}
      data-testid="site-card"
    >
      <header className="site-card-head">
        <div className="site-card-icon" aria-hidden="true">
          <Icon name="home" size={20} />
        </div>
        <div className="site-card-title">
          <h2 id={`site-${site.id}`} className="site-card-name">
            {site.name}
          </h2>
          <span className="place-code">{site.code}</span>
          {archived ? <span className="badge badge-neutral">Archived</span> : null}
          <p className="site-card-meta">
            <span>
              <Icon name="clock" size={14} /> {site.timeZone}
            </span>
            {site.address ? <span>{site.address}</span> : null}
          </p>
        </div>
        <div className="site-card-actions">
          {archived || !hasActive ? null : (
            <Link to={labelsOf(site)} className="btn btn-secondary btn-sm">
              <Icon name="printer" size={16} /> Print labels
            </Link>
          )}
          {archived ? null : (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => actions.addLocation(site, null)}>
              <Icon name="plus" size={16} /> Add location
            </button>
          )}
          <ActionMenu label={`Actions for ${site.name}`} actions={siteMenu} />
        </div>
      </header>
      <Refusal refusal={refusals.get(site.id)} onDismiss={actions.dismiss} />
      {rows.length === 0 ? (
        <p className="site-card-empty">
          {archived
            ? 'No locations.'
            : 'No locations yet. The first one you add is where stock goes at this site by default.'}
        </p>
      ) : (
        <ul className="location-tree" aria-label={`Locations at ${site.name}`}>
          {rows.map(({ location, depth }) => (
            <li
              key={location.id}
              className={location.archivedAt ? 'location-row location-row-archived' : 'location-row'}
              style={{ '--depth': depth } as React.CSSProperties}
              data-testid="location-row"
              aria-busy={busy.has(location.id) || undefined}
            >
              <div className="location-row-main">
                {depth > 0 ? <span className="location-branch" aria-hidden="true" /> : null}
                <span className="location-labels">
                  <span className="location-name">{location.name}</span>
                  <span className="place-code">{location.code}</span>
                  {location.barcode ? (
                    <span className="location-barcode" title="Label barcode">
                      <Icon name="scan" size={14} /> {location.barcode}
                    </span>
                  ) : null}
                  {site.defaultLocationId === location.id ? (
                    <span className="badge badge-role-manager">Default</span>
                  ) : null}
                  {location.archivedAt ? <span className="badge badge-neutral">Archived</span> : null}
                </span>
                <ActionMenu
                  label={`Actions for ${location.name}`}
                  actions={locationMenu(location)}
                  className="location-row-menu"
                />
              </div>
              <Refusal refusal={refusals.get(location.id)} onDismiss={actions.dismiss} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
