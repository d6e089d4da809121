// "Start a count" for those who run stocktakes: a category, some items (found by search) or
// the whole store, with an optional name. On success the new session opens.
import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import type { StocktakeScope } from '../../../../shared/stocktake';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { startMachine } from '../start.machine';

const SCOPES: { scope: StocktakeScope; label: string }[] = [
  { scope: 'category', label: 'A category' },
  { scope: 'items', label: 'Some items' },
  { scope: 'store', label: 'Whole store' },
];

export function StartCountCard() {
  const navigate = useNavigate();
  const start = useActorRef(startMachine.provide({ actions: { opened: (_, { id }) => navigate(`/stocktake/${encodeURIComponent(id)}`) } }));
  const context = useSelector(start, (s) => s.context);
  const starting = useSelector(start, (s) => s.matches('starting'));
  const ready = useSelector(start, (s) => s.can({ type: 'START' }));
  const titleId = useId();
  const { scope, categories, categoryId, query, found, picked, name, error } = context;

  return (
    <section className="card stocktake-start" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Start a count
      </h2>
      <form
        className="form-stack"
        onSubmit={(event) => {
          event.preventDefault();
          start.send({ type: 'START' });
        }}
      >
        <div className="segmented" role="radiogroup" aria-label="What to count">
          {SCOPES.map((s) => (
            <button
              key={s.scope}
              type="button"
              role="radio"
              aria-checked={scope === s.scope}
              className={`segmented-button${scope === s.scope ? ' active' : ''}`}
              onClick={() => start.send({ type: 'SCOPE', scope: s.scope })}
            >
              {s.label}
            </button>
          ))}
        </div>

        {scope === 'category' ? (
          <label className="field">
            <span className="field-label">Category</span>
            <select className="input" value={categoryId} onChange={(e) => start.send({ type: 'CATEGORY', categoryId: e.target.value })}>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.itemCount} {c.itemCount === 1 ? 'item' : 'items'})
                </option>
              ))}
            </select>
          </label>
        ) : null}

        {scope === 'items' ? (
          <div className="field">
            <label className="field-label" htmlFor={`${titleId}-search`}>
              Items to count
            </label>
            <input
              id={`${titleId}-search`}
              type="search"
              className="input"
              placeholder="Search items by name or SKU..."
              value={query}
              onChange={(e) => start.send({ type: 'SEARCH', query: e.target.value })}
            />
            {found.length > 0 ? (
              <ul className="stocktake-found" aria-label="Matching items">
                {found.slice(0, 8).map((item) => (
                  <li key={item.id}>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => start.send({ type: 'PICK', item })}>
                      <Icon name="plus" size={16} /> {item.name} <span className="stocktake-muted">{item.sku}</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {picked.length > 0 ? (
              <ul className="stocktake-picked" aria-label="Items picked">
                {picked.map((item) => (
                  <li key={item.id} className="badge badge-neutral">
                    {item.name}
                    <button type="button" className="link-button" aria-label={`Remove ${item.name}`} onClick={() => start.send({ type: 'UNPICK', itemId: item.id })}>
                      <Icon name="x" size={14} />
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="field-hint">Search, then add the items to count.</p>
            )}
          </div>
        ) : null}

        {scope === 'store' ? <p className="field-hint">Every item in the store goes on the list.</p> : null}

        <label className="field">
          <span className="field-label">
            Name <span className="optional-mark">(optional)</span>
          </span>
          <input className="input" maxLength={100} value={name} placeholder="e.g. Cellar, Monday" onChange={(e) => start.send({ type: 'NAME', name: e.target.value })} />
        </label>

        {error ? <ErrorBox message={error} /> : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={!ready || starting}>
            <Icon name="list" size={18} /> {starting ? 'Starting…' : 'Start count'}
          </button>
        </div>
      </form>
    </section>
  );
}
