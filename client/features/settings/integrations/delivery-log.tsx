// An endpoint's recent deliveries, newest first, refreshed every few seconds while open.
import { useEffect, useState } from 'react';
import type { WebhookDelivery } from '../../../../shared/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { integrationsApi } from './integrations-api';

const REFRESH_MS = 2000;
const STATUS_LABEL = { pending: 'Pending', delivered: 'Delivered', retrying: 'Retrying', failed: 'Failed' } as const;

export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      integrationsApi.deliveries(endpointId).then(
        (d) => live && (setDeliveries(d), setError(null)),
        (e) => live && setError(errorMessage(e, 'Could not load deliveries')),
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [endpointId]);

  if (error) return <p className="field-error">{error}</p>;
  if (!deliveries) return <p className="settings-aside">Loading deliveries...</p>;
  if (deliveries.length === 0)
    return <p className="settings-aside">No deliveries yet. Send a test event to try the endpoint.</p>;
  return (
    <div className="matrix-wrap">
      <table className="delivery-log">
        <caption className="visually-hidden">Recent deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">Latency</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.messageId}>
              <td>{formatDateTime(d.updatedAt)}</td>
              <td>{d.test ? 'Test event' : d.eventType}</td>
              <td>
                <span className={`delivery-status delivery-${d.status}`}>{STATUS_LABEL[d.status]}</span>
              </td>
              <td title={d.error ?? undefined}>{d.responseCode ?? d.error ?? '—'}</td>
              <td>{d.latencyMs === null ? '—' : `${d.latencyMs} ms`}</td>
              <td>{d.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
