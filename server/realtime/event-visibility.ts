// Who may see which events on the feed. Each event falls in one audience by its stream
// type; each connection holds a bit mask of the audiences its permissions open. The mask
// is computed once per (re)authentication so the fan-out only does a bitwise AND.
//
// The rules, in short:
//   - item, category      -> inventory       (inventory:view)
//   - settings            -> everyone        (every signed-in screen)
//   - user, role          -> userManagement  (users:view or users:manage)
//   - stocktake           -> stocktake       (stock:update or stocktake:run: whoever counts;
//                                              guests never count, so they get none)
//   - webhook, api-token  -> integrations    (settings:manage)
//   - site, location,     -> places          (inventory:view, guests excepted: they see stock,
//     transfer                                 not the store's management)
//   - anything else       -> unknown         (users:manage: a new stream never leaks by default)
//   - a user's own streams (user-<uid>, alerts-<uid>) also reach that user (ownerOfStream).
// An audience is all or nothing for an event: the same bytes go to every member. So an event
// must carry nothing some member may not see. Stocktake events in particular carry no expected
// quantity, difference or value (staff count blind): the API computes those on read for those
// who may run stocktakes, and an approval's numbers are read from the `count` adjustment it posted.
import { hasPermission, SEE_STOCKTAKES, type Permission } from '../../shared/permissions.js';

export const Audience = {
  /** Items and categories: anyone who can view inventory. */
  inventory: 1,
  /** Store settings: every signed-in screen (the store name, guest access, thresholds). */
  everyone: 2,
  /** Users and roles carry emails and role changes: users:view or users:manage. */
  userManagement: 4,
  /** Stream types this file does not know yet: managers only, so a new stream never leaks by default. */
  unknown: 8,
  /** Webhook endpoints and API tokens: those who manage settings (the Integrations tab, the header's alert). */
  integrations: 16,
  /** Stocktake sessions and counts: those who count (Update stock levels) or run counts. */
  stocktake: 32,
  /** Sites and locations: those who see the stock (it is kept per location), guests excepted. */
  places: 64,
} as const;

export type AudienceBit = (typeof Audience)[keyof typeof Audience];

/**
 * Not an audience: a bit in a guest's mask (no event carries it). Guests get each event's
 * guest frames, whose actor is "Staff member" (server/auth/guest-view.ts), never a name or uid.
 */
export const GUEST_VIEW = 1 << 16;

const STREAM_AUDIENCES: Record<string, AudienceBit> = {
  item: Audience.inventory,
  category: Audience.inventory,
  settings: Audience.everyone,
  user: Audience.userManagement,
  role: Audience.userManagement,
  // The counting phones follow each other live; no expected quantities in these events (above).
  stocktake: Audience.stocktake,
  webhook: Audience.integrations,
  'api-token': Audience.integrations,
  site: Audience.places,
  location: Audience.places,
  // Transfers between sites: who sent what where (the items' own events stay `inventory`).
  transfer: Audience.places,
};

export function audienceOfStreamType(streamType: string): AudienceBit {
  return STREAM_AUDIENCES[streamType] ?? Audience.unknown;
}

/** `guest`: an anonymous sign-in or the guest role (server/auth/guest-view.ts isGuest). */
export function audienceMask(permissions: readonly Permission[], { guest = false } = {}): number {
  let mask = Audience.everyone as number;
  if (permissions.includes('inventory:view')) mask |= Audience.inventory;
  if (permissions.includes('inventory:view') && !guest) mask |= Audience.places;
  if (permissions.includes('users:view') || permissions.includes('users:manage')) mask |= Audience.userManagement;
  if (permissions.includes('users:manage')) mask |= Audience.unknown;
  if (permissions.includes('settings:manage')) mask |= Audience.integrations;
  if (hasPermission(permissions, SEE_STOCKTAKES)) mask |= Audience.stocktake;
  return mask;
}

/**
 * The account a stream belongs to, for streams that are one user's own (`user-<uid>`,
 * `alerts-<uid>`): that user always sees them, whatever the audience, so an approved
 * manager request or a dismissal in another tab reaches their screens live.
 */
export function ownerOfStream(streamType: string, streamId: string): string | null {
  if (streamType === 'user' && streamId.startsWith('user-')) return streamId.slice('user-'.length);
  if (streamType === 'alerts' && streamId.startsWith('alerts-')) return streamId.slice('alerts-'.length);
  return null;
}

/** Stream types whose events can change who a connected principal is or whether it may stay. */
export function affectsPrincipals(streamType: string): boolean {
  // api-token: a revoked token closes the feeds signed in with it at once.
  return streamType === 'user' || streamType === 'role' || streamType === 'settings' || streamType === 'api-token';
}
