// The in-app alert for a webhook endpoint the server switched off after it kept failing
// a red pill in the header for those who manage settings, on every screen,
// until the endpoint is enabled again or removed, and a toast the moment it happens. The
// pill opens Settings > Integrations, where the endpoint says why and can be enabled.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { WebhookEndpoint } from '../../../../shared/webhooks';
import { Icon } from '../../../components/icons';
import { useCan } from '../../../lib/session-context';
import { onFeed } from '../../../lib/realtime';
import { showToast } from '../../../lib/toasts';
import { integrationsApi } from './integrations-api';
import './integrations-alert.css';

const FIRST_LOOK_MS = 3000;

/** Endpoints the deliverer disabled (a manager's own switch-off carries no reason). */
export function failedEndpoints(endpoints: readonly WebhookEndpoint[]): WebhookEndpoint[] {
  return endpoints.filter((e) => !e.enabled && e.disabledReason);
}

export function IntegrationsAlert() {
  const canManage = useCan('settings:manage');
  const [failed, setFailed] = useState<WebhookEndpoint[]>([]);

  useEffect(() => {
    if (!canManage) return;
    let live = true;
    const load = () =>
      integrationsApi.endpoints().then(
        (endpoints) => live && setFailed(failedEndpoints(endpoints)),
        () => undefined, // offline or restarting: the next webhook event or visit asks again
      );
    // Not on the first screen's path: ask once the page has settled.
    const first = setTimeout(() => void load(), FIRST_LOOK_MS);
    const off = onFeed('event', ({ event }) => {
      if (event.streamType !== 'webhook') return;
      if (event.type === 'WebhookEndpointDisabled') {
        showToast('A webhook endpoint was disabled after failing deliveries for too long', 'error');
      }
      void load();
    });
    return () => {
      live = false;
      clearTimeout(first);
      off();
    };
  }, [canManage]);

  if (!canManage || failed.length === 0) return null;
  const label = failed.length === 1 ? 'Webhook disabled' : `${failed.length} webhooks disabled`;
  return (
    <Link to="/settings?tab=integrations" className="integrations-alert" title={failed.map((e) => e.url).join('\n')}>
      <Icon name="alert" size={14} />
      <span className="words-wide-only">{label}</span>
    </Link>
  );
}
