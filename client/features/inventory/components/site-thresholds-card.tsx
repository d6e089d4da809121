// Low Stock by Site, on the item page of a store with several sites: the item's units at each
// site against the threshold that applies there (its own for that site, else the item's),
// whether it is low there, and, for those who manage inventory, a threshold of its own per
// site (Save; "Use item's" clears it). Live: what changes the item or a site refreshes it.
import { useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ItemSiteThreshold } from '../../../../shared/site-low-stock';
import { newWriteId } from '../../../lib/live-query.machine';
import { siteThresholdsMachine } from '../site-thresholds.machine';
import './site-thresholds.css';

export function SiteThresholdsCard({ itemId, canEdit }: { itemId: string; canEdit: boolean }) {
  const card = useActorRef(siteThresholdsMachine, { input: { params: { itemId } } });
  const data = useSelector(card, (s) => s.context.data);
  const writes = useSelector(card, (s) => s.context.writes);
  const busy = new Set(
    Object.values(writes)
      .filter((w) => w.status === 'pending')
      .map((w) => w.write.siteId),
  );
  // A store of one site has nothing to show per site, unless a threshold was set there.
  if (!data || (data.sites.length < 2 && !data.sites.some((s) => s.ownThreshold !== null))) return null;
  const save = (site: ItemSiteThreshold, threshold: number | null) =>
    card.send({
      type: 'WRITE',
      id: newWriteId(),
      write: { siteId: site.siteId, siteName: site.siteName, threshold },
    });

  return (
    <section className="card detail-card site-thresholds" aria-labelledby="site-thresholds-title">
      <h2 id="site-thresholds-title" className="card-title">
        Low Stock by Site
      </h2>
      <p className="site-thresholds-hint">
        Each site alerts at its own threshold, or at the item&apos;s ({data.itemThreshold}) where it has none.
      </p>
      <ul className="site-threshold-list">
        {data.sites.map((site) => (
          <SiteThresholdRow
            key={`${site.siteId}:${site.ownThreshold ?? ''}`}
            site={site}
            itemThreshold={data.itemThreshold}
            canEdit={canEdit}
            busy={busy.has(site.siteId)}
            onSave={(threshold) => save(site, threshold)}
          />
        ))}
      </ul>
    </section>
  );
}

function SiteThresholdRow({
  site,
  itemThreshold,
  canEdit,
  busy,
  onSave,
}: {
  site: ItemSiteThreshold;
  itemThreshold: number;
  canEdit: boolean;
  busy: boolean;
  onSave: (threshold: number | null) => void;
}) {
  const [text, setText] = useState(site.ownThreshold === null ? '' : String(site.ownThreshold));
  const typed = text.trim() === '' ? null : Number(text);
  const valid = typed === null || (Number.isInteger(typed) && typed >= 0);
  const changed = typed !== site.ownThreshold;
  const inputId = `site-threshold-${site.siteId}`;
  return (
    <li className="site-threshold-row" data-testid="site-threshold-row">
      <div className="site-threshold-site">
        <strong>{site.siteName}</strong>
        <span className="site-threshold-code">{site.siteCode}</span>
      </div>
      <dl className="site-threshold-figures">
        <div>
          <dt>In Stock</dt>
          <dd data-testid="site-threshold-quantity">{site.kept ? site.quantity : '—'}</dd>
        </div>
        <div>
          <dt>Threshold</dt>
          <dd data-testid="site-threshold-threshold">
            {site.threshold}
            <span className="site-threshold-source">{site.ownThreshold === null ? " item's" : ' own'}</span>
          </dd>
        </div>
      </dl>
      {site.low ? (
        <span className={`badge ${site.quantity <= 0 ? 'badge-danger' : 'site-threshold-low'}`}>
          {site.quantity <= 0 ? 'Out of stock' : 'Low stock'}
        </span>
      ) : (
        <span className={`badge ${site.kept ? 'badge-success' : 'badge-neutral'}`}>
          {site.kept ? 'In stock' : 'Not kept'}
        </span>
      )}
      {canEdit ? (
        <form
          className="site-threshold-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid && changed) onSave(typed);
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Threshold at {site.siteName}
          </label>
          <input
            id={inputId}
            className={`input ${valid ? '' : 'input-invalid'}`}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            placeholder={`${itemThreshold} (item's)`}
            value={text}
            disabled={busy}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn btn-sm btn-secondary" disabled={busy || !valid || !changed}>
            Save
          </button>
          {site.ownThreshold !== null ? (
            <button type="button" className="btn btn-sm btn-ghost" disabled={busy} onClick={() => onSave(null)}>
              Use item&apos;s
            </button>
          ) : null}
        </form>
      ) : null}
    </li>
  );
}
