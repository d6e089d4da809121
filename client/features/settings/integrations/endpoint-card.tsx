// One webhook endpoint: where it sends, what, whether it is on (and why not), and its
// actions: send a test event, show the delivery log, replay from a moment, switch on or
// off, remove.
import { useState } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../../../shared/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toasts';
import { DeliveryLog } from './delivery-log';
import { integrationsApi } from './integrations-api';

function eventsLabel(endpoint: WebhookEndpoint): string {
  if (endpoint.eventTypes.includes('*')) return 'All events';
  return endpoint.eventTypes.map((k) => WEBHOOK_EVENT_TYPES.find((t) => t.key === k)?.label ?? k).join(', ');
}

export function EndpointCard({ endpoint, onChanged }: { endpoint: WebhookEndpoint; onChanged: () => void }) {
  const [showLog, setShowLog] = useState(false);
  const [replayFrom, setReplayFrom] = useState('');
  const [busy, setBusy] = useState(false);

  async function act(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await work();
      showToast(done, 'success');
      onChanged();
    } catch (e) {
      showToast(errorMessage(e, 'That did not work'), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="endpoint-card">
      <div className="endpoint-head">
        <div>
          <p className="endpoint-url">{endpoint.url}</p>
          <p className="settings-aside">
            {endpoint.description ? `${endpoint.description} · ` : ''}
            {eventsLabel(endpoint)}
          </p>
        </div>
        <span className={endpoint.enabled ? 'endpoint-badge on' : 'endpoint-badge off'}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </div>
      {endpoint.disabledReason ? (
        <p className="endpoint-warning">
          {endpoint.disabledReason}. Fix the receiver, then enable it: it resumes where it stopped.
        </p>
      ) : null}
      {endpoint.enabled && endpoint.failingSince ? (
        <p className="endpoint-warning">
          Failing since {formatDateTime(endpoint.failingSince)}; next try{' '}
          {endpoint.nextAttemptAt ? formatDateTime(endpoint.nextAttemptAt) : 'soon'}.
        </p>
      ) : null}
      <div className="endpoint-actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() =>
            void act(() => integrationsApi.sendTest(endpoint.id).then(() => setShowLog(true)), 'Test event sent')
          }
        >
          Send test event
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-expanded={showLog}
          onClick={() => setShowLog((v) => !v)}
        >
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() =>
            void act(
              () => integrationsApi.updateEndpoint(endpoint.id, { enabled: !endpoint.enabled }),
              endpoint.enabled ? 'Endpoint disabled' : 'Endpoint enabled',
            )
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => void act(() => integrationsApi.removeEndpoint(endpoint.id), 'Endpoint removed')}
        >
          Remove
        </button>
      </div>
      <form
        className="endpoint-replay"
        onSubmit={(e) => {
          e.preventDefault();
          if (replayFrom)
            void act(
              () => integrationsApi.replay(endpoint.id, new Date(replayFrom).toISOString()),
              'Replaying from then',
            );
        }}
      >
        <label htmlFor={`replay-${endpoint.id}`}>Replay from</label>
        <input
          id={`replay-${endpoint.id}`}
          className="input"
          type="datetime-local"
          value={replayFrom}
          onChange={(e) => setReplayFrom(e.target.value)}
        />
        <button type="submit" className="btn btn-secondary" disabled={busy || !replayFrom}>
          Replay
        </button>
      </form>
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </li>
  );
}
