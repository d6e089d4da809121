// The Revert dialog for an entry of an item's history or of the activity log:
// what the change was, what reverting does, and for an edit each field with "changed since
// by {name} on {date}" where a later edit touched it; the manager restores the untouched
// fields, picks fields, or restores anyway. Reverting a create deletes the item, so it asks.
// A change reverted already (seen on opening, or answered 409 by the server because someone
// else was first) says by whom and when, in the reader's time format, and cannot be sent again.
import { useEffect, useRef, useState } from 'react';
import type { RevertPlan } from '../../shared/inventory-history';
import { ApiError } from '../lib/api-client';
import { toast } from '../lib/toasts';
import type { MoneyFormat } from '../../shared/money-format';
import { formatDateTime, formatPrice } from '../lib/format';
import { useStoreMoney } from '../lib/store-money';
import { ErrorBox } from './error-box';
import { historyApi } from './history-api';
import { Icon } from './icons';
import { Modal } from './modal';
import './revert-dialog.css';

const show = (value: unknown, field: string, money: MoneyFormat) =>
  value === null || value === undefined || value === ''
    ? '—'
    : field === 'price'
      ? formatPrice(Number(value), money)
      : String(value);

const WHAT_IT_DOES: Record<RevertPlan['kind'], string> = {
  adjust: 'The stock change is taken back by the opposite adjustment.',
  move: 'The units are moved back where they came from.',
  edit: 'The fields get back the values they had before this edit.',
  create: 'This deletes the item (its history is kept and it can be restored).',
  delete: 'The item is restored with its whole history.',
  'category-create': 'This deletes the category.',
  'category-edit': 'The category gets back its earlier name and description.',
  'category-delete': 'The category is restored.',
  'transfer-shipment':
    'Every unit goes back to the location it left, and the transfer is a draft again (to ship again or cancel).',
  'transfer-receipt': 'The units received go back into transit: the transfer waits for them again.',
  'transfer-write-off': 'The units written off are in transit again.',
};

type RevertedBy = NonNullable<RevertPlan['revertedBy']>;

/** Who reverted the change first, from the server's 409 to a second revert; null for any other failure. */
function revertedByOf(error: unknown): RevertedBy | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const by = (error.body as { revertedBy?: Partial<RevertedBy> } | null)?.revertedBy;
  return by && typeof by.name === 'string' && typeof by.at === 'string' ? { name: by.name, at: by.at } : null;
}

export function RevertDialog({
  eventId,
  onClose,
  onDone,
}: {
  eventId: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [plan, setPlan] = useState<RevertPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  // Set when the server answered that someone reverted it while this dialog was open.
  const [lateRevertedBy, setLateRevertedBy] = useState<RevertedBy | null>(null);
  const already = lateRevertedBy ?? plan?.revertedBy ?? null;
  const notice = useRef<HTMLDivElement>(null);

  // The Revert button the user pressed is now disabled: focus goes to the reason it is.
  useEffect(() => {
    if (lateRevertedBy) notice.current?.focus();
  }, [lateRevertedBy]);
  const money = useStoreMoney();

  useEffect(() => {
    historyApi.plan(eventId).then(
      (p) => {
        setPlan(p);
        setPicked(new Set(p.fields.filter((f) => !f.changedSince).map((f) => f.field)));
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [eventId]);

  const edit = plan?.kind === 'edit' || plan?.kind === 'category-edit';
  const submit = async (fields?: string[]) => {
    setBusy(true);
    try {
      const result = await historyApi.revert(eventId, {
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(fields ? { fields } : {}),
      });
      toast.success(`Reverted: ${result.summary}`);
      onDone();
      onClose();
    } catch (e) {
      const by = revertedByOf(e);
      if (by) {
        setLateRevertedBy(by);
        setError(null);
        onDone(); // the list behind shows it reverted too
      } else {
        setError(e instanceof Error ? e.message : String(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const footer = plan ? (
    <>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
        {already ? 'Close' : 'Cancel'}
      </button>
      {edit && plan.fields.some((f) => f.changedSince) ? (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy || !!plan.blocked || !!already}
          onClick={() => submit(plan.fields.map((f) => f.field))}
        >
          Restore all anyway
        </button>
      ) : null}
      <button
        type="button"
        className={`btn ${plan.kind === 'create' || plan.kind === 'category-create' ? 'btn-danger' : 'btn-primary'}`}
        disabled={busy || !!plan.blocked || !!already || (edit && picked.size === 0)}
        aria-describedby={already ? 'revert-already' : undefined}
        onClick={() => submit(edit ? [...picked] : undefined)}
      >
        {plan.kind === 'create' ? 'Revert and delete item' : edit ? 'Restore selected' : 'Revert'}
      </button>
    </>
  ) : null;

  return (
    <Modal title="Revert change" description={plan?.summary} onClose={onClose} busy={busy} footer={footer}>
      {!plan && !error ? <p>Loading…</p> : null}
      {plan ? (
        <>
          <p className="muted">
            By {plan.actor.name} on {formatDateTime(plan.timestamp)}. {WHAT_IT_DOES[plan.kind]}
          </p>
          {already ? (
            <div id="revert-already" ref={notice} className="revert-notice" role="status" tabIndex={-1}>
              <Icon name="check-circle" size={18} className="revert-notice-icon" />
              <span>
                Already reverted by {already.name} on {formatDateTime(already.at)}. There is nothing left to undo.
              </span>
            </div>
          ) : null}
          {plan.delta !== null && !already ? (
            <p>Stock will change by {plan.delta > 0 ? `+${plan.delta}` : plan.delta}.</p>
          ) : null}
          {edit && !already ? (
            <fieldset className="revert-dialog-fields">
              <legend>Fields to restore</legend>
              {plan.fields.map((f) => (
                <label key={f.field}>
                  <input
                    type="checkbox"
                    checked={picked.has(f.field)}
                    onChange={(e) => {
                      const next = new Set(picked);
                      if (e.target.checked) next.add(f.field);
                      else next.delete(f.field);
                      setPicked(next);
                    }}
                  />{' '}
                  <strong>{f.field}</strong>: {show(f.current, f.field, money)} → {show(f.restore, f.field, money)}
                  {f.changedSince ? (
                    <span className="revert-changed-since">
                      {' '}
                      (changed since by {f.changedSince.by} on {formatDateTime(f.changedSince.at)})
                    </span>
                  ) : null}
                </label>
              ))}
            </fieldset>
          ) : null}
          {already ? null : (
            <label className="field">
              <span>Why (shown in history and the activity log)</span>
              <input
                type="text"
                className="input"
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                aria-label="Why"
              />
            </label>
          )}
          {/* The plan's own 'Already reverted' reason is the notice above, with a readable time. */}
          {plan.blocked && !already ? <ErrorBox message={plan.blocked} /> : null}
        </>
      ) : null}
      {error ? <ErrorBox message={error} /> : null}
    </Modal>
  );
}
