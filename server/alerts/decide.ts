// Alert decisions: pure functions from (command, state) to events. A dismissal names the
// open low-stock episode; dismissing twice, or restoring what isn't dismissed, does nothing.
import type { AlertEvent, AlertSettings } from '../../shared/alerts.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';

export interface AlertItemState {
  itemExists: boolean;
  /** Position of the ItemWentLow that opened the current episode; null when the item is not low. */
  openEpisode: number | null;
  /** The episode this user dismissed, if any. */
  dismissedEpisode: number | null;
}

/** siteId: the item's alert at that site (an item watched per site); absent: the item's own. */
export type AlertCommand =
  | { type: 'Dismiss'; uid: string; itemId: string; siteId?: string }
  | { type: 'Restore'; uid: string; itemId: string; siteId?: string }
  | { type: 'ChangeSettings'; uid: string; settings: AlertSettings };

export function decideAlert(
  command: Exclude<AlertCommand, { type: 'ChangeSettings' }>,
  state: AlertItemState,
): AlertEvent[] {
  if (!state.itemExists) throw new NotFoundError('Item not found');
  const site = command.siteId ? { siteId: command.siteId } : {};
  switch (command.type) {
    case 'Dismiss':
      if (state.openEpisode === null)
        throw new ConflictError(
          `This item is not low on stock${command.siteId ? ' at this site' : ''}: there is no alert to dismiss`,
        );
      if (state.dismissedEpisode === state.openEpisode) return [];
      return [
        {
          type: 'AlertDismissed',
          data: { uid: command.uid, itemId: command.itemId, episode: state.openEpisode, ...site },
        },
      ];
    case 'Restore':
      if (state.dismissedEpisode === null) return [];
      return [{ type: 'AlertRestored', data: { uid: command.uid, itemId: command.itemId, ...site } }];
  }
}

export function decideAlertSettings(
  command: Extract<AlertCommand, { type: 'ChangeSettings' }>,
  current: AlertSettings,
): AlertEvent[] {
  const next = command.settings;
  if (next.notifyWhen !== 'low' && next.notifyWhen !== 'out')
    throw new ValidationError("notifyWhen must be 'low' or 'out'");
  if (next.inAppToasts === current.inAppToasts && next.notifyWhen === current.notifyWhen) return [];
  return [
    {
      type: 'AlertSettingsChanged',
      data: { uid: command.uid, inAppToasts: next.inAppToasts, notifyWhen: next.notifyWhen },
    },
  ];
}
