// The signed-in user's alert choices as the notifier needs them at any moment: loaded
// once after sign-in, replaced when Alert Settings saves. A tiny store, so the notifier
// (always mounted) and the settings dialog agree without a round trip.
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from '../../../shared/alerts';
import { alertsApi } from './api';

export interface AlertChoices extends AlertSettings {
  browserNotifications: boolean;
}

let choices: AlertChoices = { ...DEFAULT_ALERT_SETTINGS, browserNotifications: false };
let loading: Promise<AlertChoices> | null = null;

export function currentAlertChoices(): AlertChoices {
  return choices;
}

export function setAlertChoices(next: AlertChoices): void {
  choices = next;
}

/** Loads the choices from the server (once per sign-in; `force` after a failure or a new user). */
export function loadAlertChoices(force = false): Promise<AlertChoices> {
  if (!loading || force) {
    loading = Promise.all([alertsApi.settings(), alertsApi.preferences()]).then(
      ([settings, preferences]) => {
        choices = { ...settings, browserNotifications: preferences.browserNotifications };
        return choices;
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}
