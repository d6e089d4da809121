// Turns stored events into feed frames: an `event` message for every event, plus an
// `alert` / `alert-cleared` for the low-stock facts. Each message is serialized and framed
// once, and those same bytes go to every client that may see it.
import type { ServerMessage } from '../../shared/realtime.js';
import type { StoredEvent } from '../eventstore/types.js';
import { formatCursor, type Cursor } from '../eventstore/types.js';
import { STAFF_MEMBER } from '../auth/guest-view.js';
import { audienceOfStreamType, GUEST_VIEW, ownerOfStream, type AudienceBit } from './event-visibility.js';
import { sitesOfEvents, STORE_TOTAL_EVENTS, type LocationSites, type SiteUnits } from '../auth/event-sites.js';
import { itemIdOfStream, type ItemLabels } from './item-labels.js';
import { textFrame } from './ws-frame.js';

export interface EncodedEvent {
  cursor: Cursor;
  audience: AudienceBit;
  /** The one user who sees this event whatever their permissions (their own stream), if any. */
  owner: string | null;
  streamType: string;
  streamId: string;
  type: string;
  /** Wire-ready WebSocket text frames, in order; all share the event's cursor. */
  frames: Buffer[];
  /** The same frames as a guest gets them: the actor is "Staff member" (made on first use). */
  guestFrames(): Buffer[];
  /** The sites it belongs to (event-sites.ts); null: tied to no site. */
  sites: readonly string[] | null;
  /**
   * The frames for someone who sees only `visible` sites (`key` names that set, for the cache):
   * none for another site's event or one about the store's totals; a stock event's quantity
   * is the units at their sites.
   */
  siteFrames(visible: ReadonlySet<string>, key: string): Buffer[];
}

/** What the feed needs to show events per site (roles per site). */
export interface FeedSites {
  locationSites: LocationSites;
  /** Units per item and site now; absent when nobody limited to some sites listens (then not read). */
  units?(itemIds: string[]): Promise<SiteUnits>;
}

/** Item events whose `quantity` is the item's total after them: shown per site as the units at the viewer's sites. */
const TOTAL_QUANTITY_EVENTS = new Set(['StockAdjusted', 'ItemCreated']);

/** The frames of an event for a connection with this mask (guests' masks carry GUEST_VIEW). */
export function framesFor(event: EncodedEvent, mask: number): Buffer[] {
  return (mask & GUEST_VIEW) !== 0 ? event.guestFrames() : event.frames;
}

export function serialize(message: ServerMessage): Buffer {
  return Buffer.from(JSON.stringify(message));
}

function frame(message: ServerMessage): Buffer {
  return textFrame(serialize(message));
}

export async function encodeEvents(
  events: StoredEvent[],
  labels: ItemLabels,
  places?: FeedSites,
): Promise<EncodedEvent[]> {
  const lowItems = events
    .filter((e) => e.type === 'ItemWentLow' || e.type === 'SiteWentLow')
    .map((e) => itemIdOfStream(e.streamId));
  const labelOf = await labels([...new Set(lowItems)]);
  const lowSites = events.filter((e) => e.type === 'SiteWentLow').map((e) => (e.data as { siteId: string }).siteId);
  const siteNameOf = lowSites.length && labels.siteNames ? await labels.siteNames([...new Set(lowSites)]) : null;
  const sitesOf = places ? await sitesOfEvents(events, places.locationSites) : events.map(() => null);
  const stockItems = events
    .filter((e) => e.streamType === 'item' && TOTAL_QUANTITY_EVENTS.has(e.type))
    .map((e) => itemIdOfStream(e.streamId));
  const units = places?.units && stockItems.length ? await places.units(stockItems) : null;
  return events.map((event, index) => {
    const cursor = formatCursor(event);
    const message = (actor: { uid: string | null; name: string }): ServerMessage => ({
      type: 'event',
      cursor,
      event: {
        type: event.type,
        stream: event.streamId,
        streamType: event.streamType,
        version: event.streamVersion,
        data: event.data,
        actor,
        time: event.createdAt.toISOString(),
      },
    });
    const frames = [
      frame(message({ uid: event.metadata?.actor?.uid ?? null, name: event.metadata?.actor?.name ?? 'Unknown User' })),
    ];
    const data = event.data as { quantity?: number; threshold?: number; siteId?: string };
    if (event.type === 'ItemWentLow' || event.type === 'SiteWentLow') {
      const id = itemIdOfStream(event.streamId);
      const { name, sku, watched } = labelOf.get(id) ?? { name: '', sku: '' };
      const perSite = event.type === 'SiteWentLow' ? { siteId: data.siteId! } : null;
      const siteName = perSite ? siteNameOf?.get(perSite.siteId) : undefined;
      // An item watched per site is alerted per site: its total going low says nothing more.
      if (perSite || !watched)
        frames.push(
          frame({
            type: 'alert',
            cursor,
            item: { id, name, sku },
            quantity: data.quantity ?? 0,
            threshold: data.threshold ?? 0,
            ...perSite,
            ...(siteName ? { siteName } : {}),
          }),
        );
    } else if (event.type === 'ItemRecovered' || event.type === 'SiteRecovered') {
      const itemId = itemIdOfStream(event.streamId);
      const perSite = event.type === 'SiteRecovered' ? { siteId: data.siteId! } : {};
      frames.push(
        frame({
          type: 'alert-cleared',
          cursor,
          itemId,
          quantity: data.quantity ?? 0,
          threshold: data.threshold ?? 0,
          ...perSite,
        }),
      );
    }
    let guestFrames: Buffer[] | undefined;
    const sites = sitesOf[index] ?? null;
    const actor = { uid: event.metadata?.actor?.uid ?? null, name: event.metadata?.actor?.name ?? 'Unknown User' };
    const bySites = new Map<string, Buffer[]>();
    const siteFrames = (visible: ReadonlySet<string>, key: string): Buffer[] => {
      if (event.streamType === 'item' && STORE_TOTAL_EVENTS.has(event.type)) return [];
      if (sites !== null && !sites.some((site) => visible.has(site))) return [];
      if (event.streamType !== 'item' || !TOTAL_QUANTITY_EVENTS.has(event.type)) return frames;
      // Its quantity is the store's total: shown as the units at the viewer's sites, as now
      // (a later event of the item comes with its own); unknown, the event is kept back.
      const itemUnits = units?.get(itemIdOfStream(event.streamId).toLowerCase());
      if (!units) return [];
      let shown = bySites.get(key);
      if (!shown) {
        let quantity = 0;
        for (const [site, n] of itemUnits ?? []) if (visible.has(site)) quantity += n;
        const data = { ...(event.data as Record<string, unknown>), quantity };
        const base = message(actor) as Extract<ServerMessage, { type: 'event' }>;
        shown = [frame({ ...base, event: { ...base.event, data } })];
        bySites.set(key, shown);
      }
      return shown;
    };
    return {
      sites,
      siteFrames,
      guestFrames: () => (guestFrames ??= [frame(message({ uid: null, name: STAFF_MEMBER })), ...frames.slice(1)]),
      cursor: { txId: event.txId, position: event.position },
      audience: audienceOfStreamType(event.streamType),
      owner: ownerOfStream(event.streamType, event.streamId),
      streamType: event.streamType,
      streamId: event.streamId,
      type: event.type,
      frames,
    };
  });
}
