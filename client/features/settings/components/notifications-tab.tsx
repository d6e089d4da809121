// Notifications: the store-wide switches, and where each person sets their own alerts.
import { Link } from 'react-router-dom';
import type { Settings } from '../../../../shared/accounts';
import { SwitchRow } from '../../../components/switch-row';

export function NotificationsTab({
  draft,
  canEdit,
  onEdit,
}: {
  draft: Settings;
  canEdit: boolean;
  onEdit: (changes: Partial<Settings>) => void;
}) {
  return (
    <div className="form-stack settings-form">
      <SwitchRow
        label="Email Notifications"
        hint="Send low-stock summaries to the store's contact email."
        checked={draft.emailNotifications}
        disabled={!canEdit}
        onChange={(on) => onEdit({ emailNotifications: on })}
      />
      <SwitchRow
        label="Push Notifications"
        hint="Let Stockroom push low-stock alerts to the team's screens."
        checked={draft.pushNotifications}
        disabled={!canEdit}
        onChange={(on) => onEdit({ pushNotifications: on })}
      />
      <p className="settings-aside">
        Your own choices, such as browser notifications for new alerts, are in{' '}
        <Link to="/alerts">Alerts → Alert Settings</Link>.
      </p>
    </div>
  );
}
