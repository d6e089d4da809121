// Low-stock alerts as each user sees them: the items at or below their threshold, with the
// user's own dismissals, and the user's alert notification choices. Dismissals and choices
// are events on the user's `alerts-<uid>` stream; a dismissal names the low-stock episode
// it silences (the position of the ItemWentLow that opened it), so it ends when the item
// recovers and a later fall below the threshold alerts again.

/** One item at or below its threshold, for the Alerts screen. */
export interface LowStockAlert {
  itemId: string;
  name: string;
  sku: string;
  category: string;
  categoryId: string;
  quantity: number;
  threshold: number;
  /** When the item went low (the start of the current episode), ISO. */
  since: string;
  /** Whether the signed-in user dismissed this episode's alert. */
  dismissed: boolean;
  dismissedAt: string | null;
  /**
   * The site of an alert per site (an item watched per site, shared/site-low-stock.ts: its
   * quantity and threshold are those at the site); null for the item's own alert (its total).
   * Dismiss and restore name it.
   */
  siteId?: string | null;
  /**
   * The site the alert is about, by name, in a store of several sites (for the item's own
   * alert, the one site it is kept at); null in a store of one site, whose alerts read as
   * they always did.
   */
  siteName?: string | null;
}

/** One alert's identity on a screen: the item, and the site of an alert per site. */
export const alertKey = (alert: { itemId: string; siteId?: string | null }) => `${alert.itemId}@${alert.siteId ?? ''}`;

export interface AlertsResponse {
  alerts: LowStockAlert[];
}

/** When a pushed alert should interrupt the user: any item going low, or only items running out. */
export type AlertNotifyWhen = 'low' | 'out';

/** A user's alert choices. Browser notifications themselves are the profile's AlertPreferences. */
export interface AlertSettings {
  /** A toast inside the app when a new alert is pushed. */
  inAppToasts: boolean;
  notifyWhen: AlertNotifyWhen;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { inAppToasts: true, notifyWhen: 'low' };

/** siteId: the alert of the item at that site (an item watched per site, shared/site-low-stock.ts). */
export type AlertEvent =
  | { type: 'AlertDismissed'; data: { uid: string; itemId: string; episode: number; siteId?: string } }
  | { type: 'AlertRestored'; data: { uid: string; itemId: string; siteId?: string } }
  | { type: 'AlertSettingsChanged'; data: { uid: string } & AlertSettings };

export const alertStream = (uid: string) => ({ id: `alerts-${uid}`, type: 'alerts' });

/** Whether a pushed alert deserves a notification under the user's choice. */
export function shouldNotify(settings: AlertSettings, quantity: number): boolean {
  return settings.notifyWhen === 'low' || quantity <= 0;
}
