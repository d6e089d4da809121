// The Alert Settings dialog's machine with stand-in actors: it asks the browser before
// turning notifications on, and saves the user's choices.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AlertSettings } from '../../shared/alerts.js';
import type { NotificationPermissionState } from '../../client/features/alerts/browser-notifications.js';
import { alertSettingsMachine, BLOCKED_MESSAGE } from '../../client/features/alerts/alert-settings.machine.js';
import type { AlertChoices } from '../../client/features/alerts/alert-choices.js';

describe('alert settings machine', () => {
  const loaded: AlertChoices = { inAppToasts: true, notifyWhen: 'low', browserNotifications: false };

  function start(permission: 'granted' | 'denied', saved: AlertSettings[]) {
    return createActor(
      alertSettingsMachine.provide({
        actors: {
          load: fromPromise(async () => loaded),
          askPermission: fromPromise<NotificationPermissionState, void>(async () => permission),
          save: fromPromise(async ({ input }: { input: AlertChoices }) => {
            saved.push({ inAppToasts: input.inAppToasts, notifyWhen: input.notifyWhen });
            return input;
          }),
        },
      }),
    ).start();
  }

  it('turns browser notifications on only when the browser allows them', async () => {
    const refused = start('denied', []);
    await waitFor(refused, (s) => s.matches('editing'));
    refused.send({ type: 'TOGGLE_BROWSER', on: true });
    await waitFor(refused, (s) => s.matches('editing') && s.context.error !== null);
    expect(refused.getSnapshot().context).toMatchObject({
      error: BLOCKED_MESSAGE,
      draft: { browserNotifications: false },
    });

    const saved: AlertSettings[] = [];
    const allowed = start('granted', saved);
    await waitFor(allowed, (s) => s.matches('editing'));
    allowed.send({ type: 'TOGGLE_BROWSER', on: true });
    await waitFor(allowed, (s) => s.matches('editing') && !!s.context.draft?.browserNotifications);
    allowed.send({ type: 'SET_WHEN', when: 'out' });
    allowed.send({ type: 'SAVE' });
    await waitFor(allowed, (s) => s.matches('saved'));
    expect(saved).toEqual([{ inAppToasts: true, notifyWhen: 'out' }]);
  });
});
