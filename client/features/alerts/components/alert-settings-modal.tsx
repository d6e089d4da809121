// Alert Settings: the signed-in user's notification choices. Browser notifications (the
// browser asks for permission first), an in-app pop-up, and when to be told.
import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { SwitchRow } from '../../../components/switch-row';
import { toast } from '../../../lib/toasts';
import { alertSettingsMachine } from '../alert-settings.machine';

const PERMISSION_TEXT = {
  granted: 'This browser allows notifications from Stockroom.',
  denied: 'This browser blocks notifications from Stockroom.',
  default: 'Your browser will ask for permission when you turn this on.',
  unsupported: 'This browser does not support notifications.',
} as const;

export function AlertSettingsModal({ onClose }: { onClose: () => void }) {
  const [state, send] = useMachine(alertSettingsMachine);
  const { draft, permission, error } = state.context;
  const saving = state.matches('saving');

  useEffect(() => {
    if (state.matches('saved')) {
      toast.success('Alert settings saved');
      onClose();
    }
  }, [state, onClose]);

  return (
    <Modal
      title="Alert Settings"
      description="How Stockroom tells you when an item runs low. These choices are yours alone."
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => send({ type: 'SAVE' })}
            disabled={!draft || saving || !state.matches('editing')}
          >
            {saving ? 'Saving...' : 'Save Settings'}
          </button>
        </>
      }
    >
      {state.matches('loading') ? <p className="muted">Loading your settings...</p> : null}
      {state.matches('failed') ? (
        <ErrorBox message={error ?? 'Failed to load alert settings'} onRetry={() => send({ type: 'RETRY' })} />
      ) : null}
      {draft ? (
        <div className="form-stack">
          <SwitchRow
            label="Browser notifications"
            hint={PERMISSION_TEXT[permission]}
            checked={draft.browserNotifications}
            disabled={saving || permission === 'unsupported' || state.matches('asking')}
            onChange={(on) => send({ type: 'TOGGLE_BROWSER', on })}
          />
          <SwitchRow
            label="Pop-up in the app"
            hint="A short message in the corner of any Stockroom screen."
            checked={draft.inAppToasts}
            disabled={saving}
            onChange={(on) => send({ type: 'TOGGLE_TOASTS', on })}
          />
          <fieldset className="al-choice-group" disabled={saving}>
            <legend className="field-label">Tell me when</legend>
            <label className="al-choice">
              <input
                type="radio"
                name="notify-when"
                checked={draft.notifyWhen === 'low'}
                onChange={() => send({ type: 'SET_WHEN', when: 'low' })}
              />
              An item falls to or below its threshold
            </label>
            <label className="al-choice">
              <input
                type="radio"
                name="notify-when"
                checked={draft.notifyWhen === 'out'}
                onChange={() => send({ type: 'SET_WHEN', when: 'out' })}
              />
              Only when an item runs out of stock
            </label>
          </fieldset>
          {error ? <ErrorBox message={error} /> : null}
        </div>
      ) : null}
    </Modal>
  );
}
