// "Start a count" for those who run stocktakes: a dialog that asks what to count (one or
// more categories, the low-stock items, some items found by search, or the whole store),
// where (a site with all its locations, or one location with those inside it) and an
// optional name. Nothing is chosen for the manager and nothing starts before they choose;
// on success the new session opens.
import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorBox } from '../../../components/error-box';
import { Icon, type IconName } from '../../../components/icons';
import { Modal } from '../../../components/modal';
import {
  insideCount,
  itemsToCount,
  locationOptions,
  startMachine,
  type CountChoice,
  type StartContext,
} from '../start.machine';

const itemsText = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;
const locationsText = (n: number) => `${n} ${n === 1 ? 'location' : 'locations'}`;

/** Where to count: the site (when there are several) and all its locations or one of them. */
function WhereToCount({
  context,
  onSite,
  onLocation,
}: {
  context: StartContext;
  onSite: (siteId: string) => void;
  onLocation: (locationId: string | null) => void;
}) {
  const { sites, siteId, locationId } = context;
  const options = locationOptions(context.locations, siteId);
  const site = sites.find((s) => s.id === siteId);
  if (!site || (sites.length < 2 && options.length < 2)) return null;
  const chosen = options.findIndex((o) => o.location.id === locationId);
  const inside = chosen < 0 ? 0 : insideCount(options, chosen);
  return (
    <fieldset className="stocktake-where">
      <legend className="field-label">Where to count</legend>
      {sites.length > 1 ? (
        <label className="field">
          <span className="stocktake-where-label">Site</span>
          <select className="input" value={site.id} onChange={(e) => onSite(e.target.value)}>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.code})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span className="stocktake-where-label">Location</span>
        <select className="input" value={locationId ?? ''} onChange={(e) => onLocation(e.target.value || null)}>
          <option value="">
            All of {site.name} ({locationsText(options.length)})
          </option>
          {options.map(({ location, depth }) => (
            <option key={location.id} value={location.id}>
              {'\u00a0\u00a0\u00a0'.repeat(depth)}
              {location.name} ({location.code})
            </option>
          ))}
        </select>
      </label>
      <p className="field-hint">
        {chosen < 0
          ? `Each item is counted where it is kept at ${site.name}.`
          : `${options[chosen]!.location.name}${inside ? ` and the ${locationsText(inside)} inside it` : ''}.`}{' '}
        Approving changes the stock at the locations counted only.
      </p>
    </fieldset>
  );
}

const CHOICES: {
  choice: CountChoice;
  label: string;
  icon: IconName;
  hint: (n: { store: number; low: number | null }) => string;
}[] = [
  { choice: 'categories', label: 'Categories', icon: 'folder', hint: () => 'One shelf or several' },
  {
    choice: 'low-stock',
    label: 'Low-stock items',
    icon: 'alert',
    hint: ({ low }) => (low === null ? 'At or below their threshold' : `${itemsText(low)} at or below their threshold`),
  },
  { choice: 'items', label: 'Some items', icon: 'search', hint: () => 'Search and pick them' },
  { choice: 'store', label: 'Whole store', icon: 'box', hint: ({ store }) => `All ${itemsText(store)}` },
];

export function StartCountDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const start = useActorRef(
    startMachine.provide({ actions: { opened: (_, { id }) => navigate(`/stocktake/${encodeURIComponent(id)}`) } }),
  );
  const context = useSelector(start, (s) => s.context);
  const starting = useSelector(start, (s) => s.matches('starting'));
  const ready = useSelector(start, (s) => s.can({ type: 'START' }));
  const formId = useId();
  const { choice, categories, categoryIds, lowStock, query, found, picked, name, error } = context;
  const store = categories.reduce((n, c) => n + c.itemCount, 0);
  const toCount = itemsToCount(context);

  return (
    <Modal
      title="Start a count"
      description="Choose what to count. Staff then count it on their phones; nothing changes in stock until you approve."
      onClose={onClose}
      busy={starting}
      footer={
        <div className="stocktake-start-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={starting}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={!ready || starting}>
            <Icon name="list" size={18} />{' '}
            {starting ? 'Starting…' : toCount ? `Start count of ${itemsText(toCount)}` : 'Start count'}
          </button>
        </div>
      }
    >
      <form
        id={formId}
        className="form-stack stocktake-start-form"
        onSubmit={(event) => {
          event.preventDefault();
          start.send({ type: 'START' });
        }}
      >
        <fieldset className="stocktake-choices">
          <legend className="field-label">What to count</legend>
          {CHOICES.map((c) => (
            <label key={c.choice} className={`stocktake-choice${choice === c.choice ? ' active' : ''}`}>
              <input
                type="radio"
                name="what-to-count"
                value={c.choice}
                checked={choice === c.choice}
                onChange={() => start.send({ type: 'CHOOSE', choice: c.choice })}
              />
              <Icon name={c.icon} size={18} className="stocktake-choice-icon" />
              <span className="stocktake-choice-text">
                <span className="stocktake-choice-label">{c.label}</span>
                <span className="stocktake-muted">{c.hint({ store, low: lowStock })}</span>
              </span>
            </label>
          ))}
        </fieldset>

        {choice === 'categories' ? (
          <fieldset className="stocktake-category-picks">
            <legend className="field-label">Categories to count</legend>
            {categories.length === 0 ? <p className="field-hint">No categories yet.</p> : null}
            <ul>
              {categories.map((c) => (
                <li key={c.id}>
                  <label className="stocktake-category-pick">
                    <input
                      type="checkbox"
                      checked={categoryIds.includes(c.id)}
                      onChange={() => start.send({ type: 'TOGGLE_CATEGORY', categoryId: c.id })}
                    />
                    <span>{c.name}</span>
                    <span className="stocktake-muted">{itemsText(c.itemCount)}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}

        {choice === 'items' ? (
          <div className="field">
            <label className="field-label" htmlFor={`${formId}-search`}>
              Items to count
            </label>
            <input
              id={`${formId}-search`}
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
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => start.send({ type: 'PICK', item })}
                    >
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
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Remove ${item.name}`}
                      onClick={() => start.send({ type: 'UNPICK', itemId: item.id })}
                    >
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

        {choice === 'low-stock' ? (
          <p className="field-hint">
            {lowStock === 0
              ? 'No item is low on stock right now: nothing to count.'
              : 'The items at or below their threshold now go on the list.'}
          </p>
        ) : null}
        {choice === 'store' ? <p className="field-hint">Every item in the store goes on the list.</p> : null}

        {choice ? (
          <WhereToCount
            context={context}
            onSite={(siteId) => start.send({ type: 'PICK_SITE', siteId })}
            onLocation={(locationId) => start.send({ type: 'PICK_LOCATION', locationId })}
          />
        ) : null}

        {choice ? (
          <label className="field">
            <span className="field-label">
              Name <span className="optional-mark">(optional)</span>
            </span>
            <input
              className="input"
              maxLength={100}
              value={name}
              placeholder="e.g. Cellar, Monday"
              onChange={(e) => start.send({ type: 'NAME', name: e.target.value })}
            />
          </label>
        ) : null}

        {error ? <ErrorBox message={error} /> : null}
      </form>
    </Modal>
  );
}
