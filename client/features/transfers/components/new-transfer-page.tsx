// /transfers/new: draft a transfer. From which site to which, and its lines: for each, the
// location of the source site it leaves from, an item there (with how many are there), and
// how many. Nothing moves until the draft is shipped, on its own page.
import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan } from '../../../lib/session-context';
import { transferFormMachine, type ItemsAt } from '../transfer-form.machine';
import '../transfers.css';

interface LineDraft {
  key: number;
  locationId: string;
  itemId: string;
  quantity: string;
}

let nextKey = 0;
const blankLine = (locationId = ''): LineDraft => ({ key: ++nextKey, locationId, itemId: '', quantity: '1' });

/** Which line (from 0) a refusal's field names: `lines[2].itemId` -> 2. */
const lineOfField = (field: string | null) => {
  const match = field ? /^lines\[(\d+)\]/.exec(field) : null;
  return match ? Number(match[1]) : null;
};

export function NewTransferPage() {
  const [state, send] = useMachine(transferFormMachine);
  const navigate = useNavigate();
  const canMove = useCan('stock:update');
  const { sites, locations, itemsAt, error, field, loadError, saved } = state.context;
  const active = sites.filter((s) => !s.archivedAt);
  // Stock leaves from a site whose locations the user sees (roles per site); it may go to any.
  const sources = active.filter((s) => locations.some((l) => l.siteId === s.id));
  const [fromSiteId, setFrom] = useState('');
  const [toSiteId, setTo] = useState('');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<LineDraft[]>([blankLine()]);
  const [invalid, setInvalid] = useState<{ message: string; line: number | null } | null>(null);
  const saving = state.matches('saving');

  // Start from the first source and another site, the first line at the source's first location.
  useEffect(() => {
    if (fromSiteId || active.length < 2 || sources.length === 0) return;
    setFrom(sources[0]!.id);
    setTo(active.find((s) => s.id !== sources[0]!.id)!.id);
  }, [active, sources, fromSiteId]);
  const sourceLocations = locations.filter((l) => l.siteId === fromSiteId && !l.archivedAt);
  useEffect(() => {
    setLines((ls) =>
      ls.map((l) =>
        sourceLocations.some((s) => s.id === l.locationId)
          ? l
          : { ...l, locationId: sourceLocations[0]?.id ?? '', itemId: '' },
      ),
    );
  }, [fromSiteId, locations]);
  useEffect(() => {
    for (const line of lines) if (line.locationId) send({ type: 'LOAD_ITEMS', locationId: line.locationId });
  }, [lines, send]);
  useEffect(() => {
    if (saved) navigate(`/transfers/${encodeURIComponent(saved.id)}`, { replace: true });
  }, [saved, navigate]);

  const setLine = (key: number, change: Partial<LineDraft>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...change } : l)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fromSiteId || !toSiteId) return setInvalid({ message: 'Choose the two sites', line: null });
    if (fromSiteId === toSiteId)
      return setInvalid({ message: 'Choose two different sites: within a site, move the stock instead', line: null });
    const seen = new Set<string>();
    for (const [i, line] of lines.entries()) {
      const quantity = Number(line.quantity);
      if (!line.itemId) return setInvalid({ message: 'Choose an item', line: i });
      if (seen.has(line.itemId)) return setInvalid({ message: 'This item is on another line already', line: i });
      seen.add(line.itemId);
      if (!Number.isInteger(quantity) || quantity < 1)
        return setInvalid({ message: 'Quantity must be a whole number, at least 1', line: i });
    }
    setInvalid(null);
    send({
      type: 'SUBMIT',
      body: {
        fromSiteId,
        toSiteId,
        ...(note.trim() ? { note: note.trim() } : {}),
        lines: lines.map((l) => ({ itemId: l.itemId, fromLocationId: l.locationId, quantity: Number(l.quantity) })),
      },
    });
  };

  if (!canMove)
    return (
      <div className="page page-narrow transfers-page">
        <h1 className="page-title">New transfer</h1>
        <ErrorBox message="You don't have permission to update stock levels: a manager drafts transfers." />
      </div>
    );
  if (state.matches('failed'))
    return (
      <div className="page page-narrow transfers-page">
        <ErrorBox title="Failed to load sites" message={loadError ?? ''} onRetry={() => send({ type: 'RETRY' })} />
      </div>
    );
  if (state.matches('loading')) return <TruckLoader label="Loading sites..." fullScreen={false} />;

  const refusedLine = invalid ? invalid.line : lineOfField(field);
  const message = invalid?.message ?? error;
  return (
    <div className="page transfers-page new-transfer">
      <Link to="/transfers" className="btn btn-ghost back-link">
        <Icon name="arrow-left" size={16} /> Transfers
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title">New transfer</h1>
          <p className="page-subtitle">A draft: nothing leaves its shelf until you ship it.</p>
        </div>
      </header>
      {active.length < 2 ? (
        <ErrorBox message="A transfer goes between two sites: add a second site under Setup → Sites and locations first." />
      ) : null}
      <form className="form-stack card transfer-form" onSubmit={submit} noValidate>
        <div className="field-row">
          <div className="field">
            <label htmlFor="transfer-from">From site</label>
            <select id="transfer-from" className="input" value={fromSiteId} onChange={(e) => setFrom(e.target.value)}>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="transfer-to">To site</label>
            <select
              id="transfer-to"
              className={field === 'toSiteId' ? 'input input-invalid' : 'input'}
              value={toSiteId}
              onChange={(e) => setTo(e.target.value)}
            >
              {active.map((s) => (
                <option key={s.id} value={s.id} disabled={s.id === fromSiteId}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        </div>

        <fieldset className="transfer-form-lines">
          <legend>Lines</legend>
          {lines.map((line, i) => {
            const at: ItemsAt | undefined = itemsAt[line.locationId];
            const items = at?.status === 'ready' ? at.items.filter((item) => (item.quantityHere ?? 0) > 0) : [];
            const chosen = items.find((item) => item.id === line.itemId);
            return (
              <div
                key={line.key}
                className={refusedLine === i ? 'transfer-form-line transfer-form-line-invalid' : 'transfer-form-line'}
                role="group"
                aria-label={`Line ${i + 1}`}
              >
                <div className="field">
                  <label htmlFor={`line-${line.key}-location`}>From location</label>
                  <select
                    id={`line-${line.key}-location`}
                    className="input"
                    value={line.locationId}
                    onChange={(e) => setLine(line.key, { locationId: e.target.value, itemId: '' })}
                  >
                    {sourceLocations.map((l) => (
                      <option key={l.id} value={l.id}>
                        {l.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field transfer-form-item">
                  <label htmlFor={`line-${line.key}-item`}>Item</label>
                  <select
                    id={`line-${line.key}-item`}
                    className="input"
                    value={line.itemId}
                    onChange={(e) => setLine(line.key, { itemId: e.target.value })}
                    disabled={at?.status !== 'ready'}
                  >
                    <option value="">
                      {at?.status === 'loading'
                        ? 'Loading items...'
                        : at?.status === 'failed'
                          ? at.error
                          : items.length === 0
                            ? 'No stock here'
                            : 'Choose an item'}
                    </option>
                    {items.map((item) => (
                      <option key={item.id} value={item.id}>
                        {item.name} ({item.quantityHere} here)
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field transfer-form-qty">
                  <label htmlFor={`line-${line.key}-quantity`}>Quantity</label>
                  <input
                    id={`line-${line.key}-quantity`}
                    className="input"
                    inputMode="numeric"
                    value={line.quantity}
                    onChange={(e) => setLine(line.key, { quantity: e.target.value })}
                  />
                  {chosen ? <span className="field-hint">{chosen.quantityHere} there now</span> : null}
                </div>
                <button
                  type="button"
                  className="btn btn-icon btn-ghost transfer-form-remove"
                  aria-label={`Remove line ${i + 1}`}
                  onClick={() => setLines((ls) => ls.filter((l) => l.key !== line.key))}
                  disabled={lines.length === 1}
                >
                  <Icon name="trash" size={16} />
                </button>
              </div>
            );
          })}
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setLines((ls) => [...ls, blankLine(sourceLocations[0]?.id ?? '')])}
          >
            <Icon name="plus" size={16} /> Add line
          </button>
        </fieldset>

        <div className="field">
          <span className="field-label-row">
            <label htmlFor="transfer-note">
              Note<span className="optional-mark"> (optional)</span>
            </label>
          </span>
          <input
            id="transfer-note"
            className="input"
            value={note}
            maxLength={500}
            placeholder="e.g. for the spring window"
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {message ? <ErrorBox message={message} /> : null}
        <div className="modal-actions transfer-form-actions">
          <Link to="/transfers" className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={saving || active.length < 2}>
            {saving ? 'Saving...' : 'Save draft'}
          </button>
        </div>
      </form>
    </div>
  );
}
