// Deleting a category (managers): a confirmation for an empty one; for one that
// still holds items, why it can't go yet and the way out: move its items to another
// category first (then it is deleted), when the user may move items.
import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import type { Category } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { deleteCategoryMachine, moveTargets, type DeleteCategoryOutput } from '../delete-category.machine';

const plural = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

export function DeleteCategoryDialog({
  category,
  canMoveItems,
  onClose,
  onDeleted,
}: {
  category: Category;
  /** May edit items (their category): without it, the dialog only explains. */
  canMoveItems: boolean;
  onClose: () => void;
  onDeleted: (result: DeleteCategoryOutput & { name: string }) => void;
}) {
  const [snapshot, send] = useMachine(deleteCategoryMachine, { input: { category } });
  const { error, targetId } = snapshot.context;
  const current = snapshot.context.category;
  const busy = snapshot.matches('deleting') || snapshot.matches('moving');
  const notEmpty = snapshot.matches('notEmpty') || snapshot.matches('moving');
  const targets = moveTargets(snapshot.context);
  const cancel = () => send({ type: 'CANCEL' });

  useEffect(() => {
    if (snapshot.status !== 'done' || !snapshot.output) return;
    if (snapshot.output.deleted) onDeleted({ ...snapshot.output, name: snapshot.context.category.name });
    else onClose();
  }, [snapshot, onDeleted, onClose]);

  let footer = (
    <button type="button" className="btn btn-secondary" onClick={cancel} disabled={busy}>
      Cancel
    </button>
  );
  if (snapshot.matches('confirming') || snapshot.matches('deleting')) {
    footer = (
      <>
        {footer}
        <button type="button" className="btn btn-danger" onClick={() => send({ type: 'CONFIRM' })} disabled={busy}>
          {busy ? 'Deleting...' : 'Delete'}
        </button>
      </>
    );
  } else if (notEmpty && canMoveItems && targets.length > 0) {
    footer = (
      <>
        {footer}
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => send({ type: 'MOVE_AND_DELETE' })}
          disabled={busy || !targetId}
        >
          {snapshot.matches('moving') ? 'Moving items...' : `Move ${plural(current.itemCount)} and delete`}
        </button>
      </>
    );
  }

  return (
    <Modal title="Delete Category" onClose={cancel} busy={busy} size="small" footer={footer}>
      <div className="form-stack">
        {error ? <ErrorBox message={error} /> : null}
        {snapshot.matches('checking') ? (
          <p className="confirm-message">Checking &quot;{category.name}&quot;...</p>
        ) : null}
        {snapshot.matches('confirming') || snapshot.matches('deleting') ? (
          <p className="confirm-message">Are you sure you want to delete &quot;{current.name}&quot;?</p>
        ) : null}
        {notEmpty ? (
          <>
            <p className="confirm-message" role="status">
              &quot;{current.name}&quot; still has {plural(current.itemCount)}. Only an empty category can be deleted:
              move its items to another category first.
            </p>
            {!canMoveItems ? (
              <p className="field-hint">Ask a store manager to move them, or delete the items first.</p>
            ) : null}
            {canMoveItems && targets.length === 0 ? (
              <p className="field-hint">
                There is no other category to move them to. Add one first, or delete the items.
              </p>
            ) : null}
            {canMoveItems && targets.length > 0 ? (
              <div className="field">
                <label htmlFor="move-items-to">Move items to</label>
                <select
                  id="move-items-to"
                  className="input"
                  value={targetId}
                  disabled={busy}
                  onChange={(e) => send({ type: 'CHOOSE_TARGET', categoryId: e.target.value })}
                >
                  <option value="">Choose a category...</option>
                  {targets.map((target) => (
                    <option key={target.id} value={target.id}>
                      {target.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </>
        ) : null}
      </div>
    </Modal>
  );
}
