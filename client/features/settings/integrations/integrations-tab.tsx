// Settings > Integrations (managers): webhook endpoints with their delivery logs, and API
// tokens. An endpoint the server disabled after failing for too long shows a banner at the
// top, so a manager notices on opening the tab.
import { useState } from 'react';
import { useMachine } from '@xstate/react';
import { ErrorBox } from '../../../components/error-box';
import { TruckLoader } from '../../../components/truck-loader';
import { ApiTokensSection } from './api-tokens-section';
import { EndpointCard } from './endpoint-card';
import { EndpointForm } from './endpoint-form';
import { integrationsMachine } from './integrations.machine';
import { SecretOnce } from './secret-once';
import './integrations.css';

export function IntegrationsTab() {
  const [state, send] = useMachine(integrationsMachine);
  // The signing secret of the endpoint just added (value null: its answer was lost, see SecretOnce).
  const [secret, setSecret] = useState<{ value: string | null } | null>(null);
  const { endpoints, tokens, error } = state.context;
  const reload = () => send({ type: 'RELOAD' });
  if (state.matches('loading')) return <TruckLoader label="Loading integrations..." fullScreen={false} />;
  if (state.matches('error'))
    return (
      <ErrorBox title="Failed to load integrations" message={error ?? ''} onRetry={() => send({ type: 'RETRY' })} />
    );
  const disabled = endpoints.filter((e) => e.disabledReason);

  return (
    <div className="integrations-tab">
      {disabled.length ? (
        <div className="integrations-banner" role="alert">
          {disabled.length === 1 ? 'A webhook endpoint was' : `${disabled.length} webhook endpoints were`} disabled
          after failing deliveries for too long: {disabled.map((e) => e.url).join(', ')}
        </div>
      ) : null}
      <section className="integrations-section" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading" className="integrations-heading">
          Webhooks
        </h2>
        <p className="settings-aside">
          Stockroom posts each change to your endpoints, signed (Standard Webhooks), in order, and retries for up to a
          day if a receiver is down.
        </p>
        {secret ? (
          <SecretOnce
            label="Signing secret"
            value={secret.value}
            lostHint="Remove the endpoint and add it again for a new secret."
            onDone={() => setSecret(null)}
          />
        ) : null}
        {endpoints.length ? (
          <ul className="endpoint-list" aria-label="Webhook endpoints">
            {endpoints.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} onChanged={reload} />
            ))}
          </ul>
        ) : (
          <p className="settings-aside">No endpoints yet.</p>
        )}
        <EndpointForm
          onCreated={(s) => {
            setSecret({ value: s });
            reload();
          }}
        />
      </section>
      <ApiTokensSection tokens={tokens} onChanged={reload} />
    </div>
  );
}
