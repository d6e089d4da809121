// Add a webhook endpoint: its URL, a note, the events to send (all, or some types), and
// optionally only the events of some categories (a shop that syncs one department).
import { useEffect, useState, type FormEvent } from 'react';
import type { Category } from '../../../../shared/inventory';
import { WEBHOOK_EVENT_TYPES, type WebhookSubscription } from '../../../../shared/webhooks';
import { ErrorBox } from '../../../components/error-box';
import { errorMessage } from '../../../lib/api-client';
import { integrationsApi } from './integrations-api';

export function EndpointForm({ onCreated }: { onCreated: (secret: string | null) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<WebhookSubscription[]>(['*']);
  const [categories, setCategories] = useState<Category[]>([]);
  const [categoryIds, setCategoryIds] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const all = types.includes('*');
  useEffect(() => {
    let live = true;
    integrationsApi.categories().then(
      (list) => live && setCategories(list),
      () => undefined, // without the list, the endpoint simply gets every category
    );
    return () => {
      live = false;
    };
  }, []);
  const toggleCategory = (id: string) =>
    setCategoryIds((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current, id]));
  const toggle = (key: WebhookSubscription) =>
    setTypes((current) =>
      current.includes(key) ? current.filter((t) => t !== key) : [...current.filter((t) => t !== '*'), key],
    );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { secret } = await integrationsApi.createEndpoint({
        url: url.trim(),
        description: description.trim(),
        eventTypes: types,
        categoryIds,
      });
      setUrl('');
      setDescription('');
      setTypes(['*']);
      setCategoryIds([]);
      onCreated(secret);
    } catch (e) {
      setError(errorMessage(e, 'Could not add the endpoint'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form-stack integrations-form" onSubmit={submit} aria-label="Add webhook endpoint">
      <div className="field">
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          className="input"
          type="url"
          required
          placeholder="https://example.com/stockroom-hook"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="webhook-description">Description</label>
        <input
          id="webhook-description"
          className="input"
          maxLength={200}
          placeholder="Online shop stock sync"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <fieldset className="field integrations-checks">
        <legend>Events to send</legend>
        <label className="check">
          <input type="checkbox" checked={all} onChange={() => setTypes(all ? [] : ['*'])} /> All events
        </label>
        {WEBHOOK_EVENT_TYPES.map((t) => (
          <label key={t.key} className="check">
            <input
              type="checkbox"
              checked={all || types.includes(t.key)}
              disabled={all}
              onChange={() => toggle(t.key)}
            />{' '}
            {t.label}
          </label>
        ))}
      </fieldset>
      {categories.length > 0 ? (
        <fieldset className="field integrations-checks">
          <legend>Categories</legend>
          <p className="settings-aside">Item and stock events of these categories only. None ticked: every category.</p>
          {categories.map((c) => (
            <label key={c.id} className="check">
              <input type="checkbox" checked={categoryIds.includes(c.id)} onChange={() => toggleCategory(c.id)} />{' '}
              {c.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      {error ? <ErrorBox message={error} /> : null}
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy || types.length === 0}>
          {busy ? 'Adding...' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}
