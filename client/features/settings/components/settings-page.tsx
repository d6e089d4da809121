// Settings (/settings): tabs General, Notifications, Appearance and, for managers only
// (those who manage users and their roles), Permissions. Store settings
// are saved on the server with Save Changes (a toast confirms); only those who may manage
// settings can change them, everyone else reads them with the managers' note.
// Appearance sets the theme on this device at once. Those who manage settings also find the
// way to Sites and locations (/settings/places) here.
import { useState } from 'react';
import { useMachine } from '@xstate/react';
import { Link, useSearchParams } from 'react-router-dom';
import type { Settings } from '../../../../shared/accounts';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan } from '../../../lib/session-context';
import { isDirty, settingsMachine } from '../settings.machine';
import { AppearanceTab } from './appearance-tab';
import { GeneralTab } from './general-tab';
import { ManagerNote } from './manager-note';
import { NotificationsTab } from './notifications-tab';
import { PermissionsTab } from './permissions-tab';
import { Tabs, type TabSpec } from './tabs';
import { IntegrationsTab } from '../integrations/integrations-tab';
import '../settings.css';

type TabKey = 'general' | 'notifications' | 'appearance' | 'permissions' | 'integrations';

const TABS: TabSpec<TabKey>[] = [
  { key: 'general', label: 'General' },
  { key: 'notifications', label: 'Notifications' },
  { key: 'appearance', label: 'Appearance' },
  { key: 'permissions', label: 'Permissions' },
  { key: 'integrations', label: 'Integrations' },
];

export function SettingsPage() {
  const [state, send] = useMachine(settingsMachine);
  // ?tab= opens a section directly (the header's "Webhook disabled" alert links to Integrations).
  const [searchParams] = useSearchParams();
  const [chosenTab, setTab] = useState<TabKey>(
    () => TABS.find((t) => t.key === searchParams.get('tab'))?.key ?? 'general',
  );
  const canEdit = useCan('settings:manage');
  const canManageRoles = useCan('users:manage');
  // Integrations (webhooks, API tokens) are for those who manage settings.
  const tabs = TABS.filter((t) => (t.key !== 'permissions' || canManageRoles) && (t.key !== 'integrations' || canEdit));
  // A role change while on Permissions takes the tab away: fall back to General.
  const tab = tabs.some((t) => t.key === chosenTab) ? chosenTab : 'general';
  const { draft, roles, error, saveError } = state.context;
  const saving = state.matches('saving');
  const dirty = isDirty(state.context);
  const storeTab = tab === 'general' || tab === 'notifications';
  const edit = (changes: Partial<Settings>) => send({ type: 'EDIT', changes });

  return (
    <div className="page page-narrow settings-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Settings</h1>
          <p className="page-subtitle">Store details, notifications, appearance and permissions</p>
        </div>
        {canEdit ? (
          <div className="page-actions">
            <Link to="/settings/places" className="btn btn-secondary">
              <Icon name="home" size={18} /> Sites and locations
            </Link>
          </div>
        ) : null}
      </header>
      {state.matches('error') ? (
        <ErrorBox
          title="Failed to load settings"
          message={error ?? 'Failed to load settings'}
          onRetry={() => send({ type: 'RETRY' })}
        />
      ) : null}
      {state.matches('loading') ? <TruckLoader label="Loading settings..." fullScreen={false} /> : null}
      {draft ? (
        <Tabs tabs={tabs} current={tab} onSelect={setTab} label="Settings sections">
          {storeTab && !canEdit ? <ManagerNote /> : null}
          {tab === 'general' ? <GeneralTab draft={draft} canEdit={canEdit && !saving} onEdit={edit} /> : null}
          {tab === 'notifications' ? (
            <NotificationsTab draft={draft} canEdit={canEdit && !saving} onEdit={edit} />
          ) : null}
          {tab === 'appearance' ? <AppearanceTab /> : null}
          {tab === 'permissions' && canManageRoles ? <PermissionsTab roles={roles} /> : null}
          {tab === 'integrations' && canEdit ? <IntegrationsTab /> : null}
          {storeTab && canEdit ? (
            <div className="settings-actions">
              {saveError ? <ErrorBox message={saveError} /> : null}
              <div className="settings-buttons">
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => send({ type: 'DISCARD' })}
                  disabled={!dirty || saving}
                >
                  Discard
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => send({ type: 'SAVE' })}
                  disabled={saving}
                >
                  {saving ? 'Saving...' : 'Save Changes'}
                </button>
              </div>
            </div>
          ) : null}
        </Tabs>
      ) : null}
    </div>
  );
}
