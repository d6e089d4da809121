// API tokens: create one (name, expiry, permissions no wider than the user's own), shown
// once; the list with owner, permissions, expiry and last use; revoke at once.
import { useState, type FormEvent } from 'react';
import type { ApiToken } from '../../../../shared/api-tokens';
import { PERMISSIONS, type Permission } from '../../../../shared/permissions';
import { ErrorBox } from '../../../components/error-box';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session-context';
import { showToast } from '../../../lib/toasts';
import { integrationsApi } from './integrations-api';
import { SecretOnce } from './secret-once';

const LIFETIMES = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
];

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'Never');

export function ApiTokensSection({ tokens, onChanged }: { tokens: ApiToken[]; onChanged: () => void }) {
  const { permissions: mine } = useSession();
  const offered = PERMISSIONS.filter((p) => mine.includes(p.key));
  const [name, setName] = useState('');
  const [days, setDays] = useState(30);
  const [chosen, setChosen] = useState<Permission[]>(['inventory:view']);
  // The token just created (value null: its answer was lost, see SecretOnce).
  const [created, setCreated] = useState<{ value: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
      const { token } = await integrationsApi.createToken({ name: name.trim(), expiresAt, permissions: chosen });
      setCreated({ value: token });
      setName('');
      onChanged();
    } catch (e) {
      setError(errorMessage(e, 'Could not create the token'));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: ApiToken) {
    try {
      await integrationsApi.revokeToken(token.id);
      showToast(`Token "${token.name}" revoked`, 'success');
      onChanged();
    } catch (e) {
      showToast(errorMessage(e, 'Could not revoke the token'), 'error');
    }
  }

  return (
    <section className="integrations-section" aria-labelledby="api-tokens-heading">
      <h2 id="api-tokens-heading" className="integrations-heading">
        API tokens
      </h2>
      <p className="settings-aside">
        For scripts and tills: send <code>Authorization: Bearer srk_…</code>. A token acts as you, with only the
        permissions you give it.
      </p>
      {created ? (
        <SecretOnce
          label="New API token"
          value={created.value}
          lostHint="Revoke it below and create a new one."
          onDone={() => setCreated(null)}
        />
      ) : null}
      <form className="form-stack integrations-form" onSubmit={submit} aria-label="Create API token">
        <div className="field">
          <label htmlFor="token-name">Token name</label>
          <input
            id="token-name"
            className="input"
            required
            maxLength={80}
            placeholder="Till 1"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="token-expiry">Expires after</label>
          <select
            id="token-expiry"
            className="input settings-number"
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          >
            {LIFETIMES.map((l) => (
              <option key={l.days} value={l.days}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field integrations-checks">
          <legend>Permissions</legend>
          {offered.map((p) => (
            <label key={p.key} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(p.key)}
                onChange={() => setChosen((c) => (c.includes(p.key) ? c.filter((x) => x !== p.key) : [...c, p.key]))}
              />{' '}
              {p.label}
            </label>
          ))}
        </fieldset>
        {error ? <ErrorBox message={error} /> : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || chosen.length === 0}>
            {busy ? 'Creating...' : 'Create token'}
          </button>
        </div>
      </form>
      {tokens.length ? (
        <div className="matrix-wrap">
          <table className="delivery-log">
            <caption className="visually-hidden">API tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Permissions</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>{t.userName}</td>
                  <td>{t.permissions.length}</td>
                  <td>{when(t.expiresAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td>{t.status === 'active' ? 'Active' : t.status === 'expired' ? 'Expired' : 'Revoked'}</td>
                  <td>
                    {t.status === 'active' ? (
                      <button type="button" className="btn btn-danger btn-small" onClick={() => void revoke(t)}>
                        Revoke
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
