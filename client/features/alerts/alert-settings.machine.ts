// The Alert Settings dialog: loads my choices, edits a draft, asks the browser for
// permission when browser notifications are turned on, and saves both parts (my alert
// settings and the profile's browser-notification preference) together.
import { assign, fromPromise, setup } from 'xstate';
import type { AlertNotifyWhen } from '../../../shared/alerts';
import { errorMessage } from '../../lib/api-client';
import { loadAlertChoices, setAlertChoices, type AlertChoices } from './alert-choices';
import { alertsApi } from './api';
import {
  notificationPermission,
  requestNotificationPermission,
  type NotificationPermissionState,
} from './browser-notifications';

export interface AlertSettingsContext {
  draft: AlertChoices | null;
  permission: NotificationPermissionState;
  error: string | null;
}

export type AlertSettingsEvent =
  | { type: 'TOGGLE_BROWSER'; on: boolean }
  | { type: 'TOGGLE_TOASTS'; on: boolean }
  | { type: 'SET_WHEN'; when: AlertNotifyWhen }
  | { type: 'SAVE' }
  | { type: 'RETRY' };

export const BLOCKED_MESSAGE =
  'Notifications are blocked for this site. Allow them in your browser’s site settings, then turn this on.';

export const alertSettingsMachine = setup({
  types: { context: {} as AlertSettingsContext, events: {} as AlertSettingsEvent },
  actors: {
    load: fromPromise<AlertChoices, void>(() => loadAlertChoices(true)),
    askPermission: fromPromise<NotificationPermissionState, void>(() => requestNotificationPermission()),
    save: fromPromise<AlertChoices, AlertChoices>(async ({ input }) => {
      const [settings, preferences] = await Promise.all([
        alertsApi.saveSettings({ inAppToasts: input.inAppToasts, notifyWhen: input.notifyWhen }),
        alertsApi.savePreferences({ browserNotifications: input.browserNotifications }),
      ]);
      return { ...settings, browserNotifications: preferences.browserNotifications };
    }),
  },
  guards: {
    turningBrowserOn: ({ event }) => event.type === 'TOGGLE_BROWSER' && event.on,
    alreadyGranted: ({ context }) => context.permission === 'granted',
    granted: ({ event }) => (event as unknown as { output: NotificationPermissionState }).output === 'granted',
  },
  actions: {
    setDraft: assign({ draft: ({ event }) => (event as unknown as { output: AlertChoices }).output, error: null }),
    setError: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to load alert settings'),
    }),
    setSaveError: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to save alert settings'),
    }),
    edit: assign({
      draft: ({ context, event }) => {
        if (!context.draft) return context.draft;
        if (event.type === 'TOGGLE_BROWSER') return { ...context.draft, browserNotifications: event.on };
        if (event.type === 'TOGGLE_TOASTS') return { ...context.draft, inAppToasts: event.on };
        if (event.type === 'SET_WHEN') return { ...context.draft, notifyWhen: event.when };
        return context.draft;
      },
      error: null,
    }),
    browserOn: assign({
      draft: ({ context }) => context.draft && { ...context.draft, browserNotifications: true },
      error: null,
    }),
    rememberPermission: assign({
      permission: ({ event }) => (event as unknown as { output: NotificationPermissionState }).output,
    }),
    blocked: assign({ error: BLOCKED_MESSAGE }),
    publish: ({ event }) => setAlertChoices((event as unknown as { output: AlertChoices }).output),
  },
}).createMachine({
  id: 'alertSettings',
  context: () => ({ draft: null, permission: notificationPermission(), error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'editing', actions: 'setDraft' },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    failed: { on: { RETRY: 'loading' } },
    editing: {
      on: {
        TOGGLE_BROWSER: [{ guard: 'turningBrowserOn', target: 'asking' }, { actions: 'edit' }],
        TOGGLE_TOASTS: { actions: 'edit' },
        SET_WHEN: { actions: 'edit' },
        SAVE: 'saving',
      },
    },
    asking: {
      always: { guard: 'alreadyGranted', target: 'editing', actions: 'browserOn' },
      invoke: {
        src: 'askPermission',
        onDone: [
          { guard: 'granted', target: 'editing', actions: ['rememberPermission', 'browserOn'] },
          { target: 'editing', actions: ['rememberPermission', 'blocked'] },
        ],
        onError: { target: 'editing', actions: 'blocked' },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => context.draft!,
        onDone: { target: 'saved', actions: ['setDraft', 'publish'] },
        onError: { target: 'editing', actions: 'setSaveError' },
      },
    },
    saved: { type: 'final' },
  },
});
