// The Revert dialog (issue 14) for an entry of an item's history or of the activity log:
// what the change was, what reverting does, and for an edit each field with "changed since
// by {name} on {date}" where a later edit touched it; the manager restores the untouched
// fields, picks fields, or restores anyway. Reverting a create deletes the item, so it asks.
import { useEffect, useState } from 'react';
import type { RevertPlan } from '../../shared/inventory-history';
import { toast } from '../lib/toasts';
import { formatDateTime } from '../lib/format';
import { historyApi } from './history-api';
import { Modal } from './modal';

const show = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : String(value));

const WHAT_IT_DOES: Record<RevertPlan['kind'], string> = {
  adjust: 'The stock change is taken back by the opposite adjustment.',
  edit: 'The fields get back the values they had before this edit.',
  create: 'This deletes the item (its history is kept and it can be restored).',
  delete: 'The item is restored with its whole history.',
  'category-create': 'This deletes the category.',
  'category-edit': 'The category gets back its earlier name and description.',
  'category-delete': 'The category is restored.',
};

export function RevertDialog({ eventId, onClose, onDone }: { eventId: string; onClose: () => void; onDone: () => void }) {
  const [plan, setPlan] = useState<RevertPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

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
      const result = await historyApi.revert(eventId, { ...(reason.trim() ? { reason: reason.trim() } : {}), ...(fields ? { fields } : {}) });
      toast.success(`Reverted: ${result.summary}`);
      onDone();
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const footer = plan ? (
    <>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      {edit && plan.fields.some((f) => f.changedSince) ? (
        <button type="button" className="btn btn-secondary" disabled={busy || !!plan.blocked} onClick={() => submit(plan.fields.map((f) => f.field))}>
          Restore all anyway
        </button>
      ) : null}
      <button
        type="button"
        className={`btn ${plan.kind === 'create' || plan.kind === 'category-create' ? 'btn-danger' : 'btn-primary'}`}
        disabled={busy || !!plan.blocked || (edit && picked.size === 0)}
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
          {plan.delta !== null ? <p>Stock will change by {plan.delta > 0 ? `+${plan.delta}` : plan.delta}.</p> : null}
          {edit ? (
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
                  <strong>{f.field}</strong>: {show(f.current)} → {show(f.restore)}
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
          <label className="field">
            <span>Why (shown in history and the activity log)</span>
            <input type="text" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} aria-label="Why" />
          </label>
          {plan.blocked ? <p className="form-error" role="alert">{plan.blocked}</p> : null}
        </>
      ) : null}
      {error ? <p className="form-error" role="alert">{error}</p> : null}
    </Modal>
  );
}
