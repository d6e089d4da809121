// The Sites and locations page's live data: every site and location, with site and location
// events from the feed folded in by the same fold the server decides with (shared/sites.ts),
// and the page's archive and restore writes; a refused write stays, with its message, for
// the page to show where it was asked.
import type { Draft } from 'immer';
import type { FeedEvent } from '../../../shared/realtime';
import {
  evolveLocation,
  evolveSite,
  siteWithLocation,
  type Location,
  type LocationEvent,
  type Site,
  type SiteEvent,
} from '../../../shared/sites';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { placesApi, type PlaceWrite } from './api';

export interface PlacesData {
  sites: Site[];
  locations: Location[];
}

/**
 * Archive, restore and "make default" go through the page's live data (a refusal stays with
 * the place it was asked for); the forms save on their own (place-form.machine.ts).
 */
export type PlacesWrite = Extract<
  PlaceWrite,
  { kind: 'archive-site' | 'restore-site' | 'archive-location' | 'restore-location' | 'edit-site' }
>;

/** The place a write is about, to show its refusal beside it. */
export const placeOf = (write: PlacesWrite): string => ('site' in write ? write.site.id : write.location.id);

const concerns = (event: FeedEvent) => event.streamType === 'site' || event.streamType === 'location';

/** One event of a site's or location's stream onto the list holding it: in order, or read again. */
function evolveIn<T extends { id: string; version: number }>(
  list: Draft<T>[],
  id: string,
  event: FeedEvent,
  created: boolean,
  evolve: (state: T | null) => T | null,
): FeedEffect {
  const at = list.findIndex((x) => x.id === id);
  const current = at < 0 ? null : (list[at] as T);
  // Already here (this page's own write answered first, or a refetch read it).
  if (current && event.version <= current.version) return 'ignored';
  // A gap: an event was missed.
  if (created ? current !== null : !current || event.version !== current.version + 1) return 'refetch';
  const next = evolve(current);
  if (!next) return 'refetch';
  if (at < 0) list.push(next as Draft<T>);
  else list[at] = next as Draft<T>;
  return 'applied';
}

export function reducePlaces(draft: Draft<PlacesData>, event: FeedEvent): FeedEffect {
  const meta = { version: event.version, at: event.time };
  if (event.streamType === 'site') {
    const e = { type: event.type, data: event.data } as SiteEvent;
    return evolveIn<Site>(draft.sites, event.stream.slice('site-'.length), event, e.type === 'SiteCreated', (s) =>
      evolveSite(s, e, meta),
    );
  }
  if (event.streamType === 'location') {
    const e = { type: event.type, data: event.data } as LocationEvent;
    const effect = evolveIn<Location>(
      draft.locations,
      event.stream.slice('location-'.length),
      event,
      e.type === 'LocationCreated',
      (l) => evolveLocation(l, e, meta),
    );
    if (effect === 'applied' && e.type === 'LocationCreated') {
      const at = draft.sites.findIndex((s) => s.id === e.data.siteId);
      if (at >= 0) draft.sites[at] = siteWithLocation(draft.sites[at] as Site, e);
    }
    return effect;
  }
  return 'ignored';
}

/** A write's answer (the site or location as it left it) in place of what the list holds, unless the list is newer. */
export function applyAnswer(draft: Draft<PlacesData>, answer: Site | Location): FeedEffect {
  const list = ('siteId' in answer ? draft.locations : draft.sites) as Draft<Site | Location>[];
  const at = list.findIndex((x) => x.id === answer.id);
  if (at >= 0 && list[at]!.version >= answer.version) return 'ignored';
  if (at < 0) list.push(answer as Draft<Site | Location>);
  else list[at] = answer as Draft<Site | Location>;
  return 'applied';
}

function doneMessage(write: PlacesWrite, result: unknown): string {
  switch (write.kind) {
    case 'edit-site':
      return `${write.site.name}'s default location changed`;
    case 'archive-site':
    case 'restore-site':
      return `${write.site.name} ${write.kind === 'archive-site' ? 'archived' : 'restored'}`;
    default:
      return `${(result as Location | undefined)?.name ?? write.location.name} ${write.kind === 'archive-location' ? 'archived' : 'restored'}`;
  }
}

export const placesMachine = createLiveQueryMachine<PlacesData, null, PlacesWrite>({
  id: 'places',
  load: async () => {
    const [sites, locations] = await Promise.all([placesApi.sites(), placesApi.locations()]);
    return { sites, locations };
  },
  reduce: (draft, event) => reducePlaces(draft, event),
  concerns,
  runWrite: (write) => placesApi.write(write),
  applyWrite: (draft, _write, result) => applyAnswer(draft, result as Site | Location),
  onWriteDone: (write, result) => toast.success(doneMessage(write, result)),
  loadErrorMessage: 'Failed to load sites and locations',
});
