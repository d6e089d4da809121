// Who may see which events on the feed. Each event falls in one audience by its stream
// type; each connection holds a bit mask of the audiences its permissions open. The mask
// is computed once per (re)authentication so the fan-out only does a bitwise AND.
import type { Permission } from '../../shared/permissions.js';

export const Audience = {
  /** Items and categories: anyone who can view inventory. */
  inventory: 1,
  /** Store settings: every signed-in screen (the store name, guest access, thresholds). */
  everyone: 2,
  /** Users and roles carry emails and role changes: users:view or users:manage. */
  userManagement: 4,
  /** Stream types this file does not know yet: managers only, so a new stream never leaks by default. */
  unknown: 8,
} as const;

export type AudienceBit = (typeof Audience)[keyof typeof Audience];

const STREAM_AUDIENCES: Record<string, AudienceBit> = {
  item: Audience.inventory,
  category: Audience.inventory,
  settings: Audience.everyone,
  user: Audience.userManagement,
  role: Audience.userManagement,
};

export function audienceOfStreamType(streamType: string): AudienceBit {
  return STREAM_AUDIENCES[streamType] ?? Audience.unknown;
}

export function audienceMask(permissions: readonly Permission[]): number {
  let mask = Audience.everyone as number;
  if (permissions.includes('inventory:view')) mask |= Audience.inventory;
  if (permissions.includes('users:view') || permissions.includes('users:manage')) mask |= Audience.userManagement;
  if (permissions.includes('users:manage')) mask |= Audience.unknown;
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
  return streamType === 'user' || streamType === 'role' || streamType === 'settings';
}
