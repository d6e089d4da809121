// The Add Category modal: name (required) and description (optional).
import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import type { Category } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { addCategoryMachine } from '../add-category.machine';

export function AddCategoryModal({ onClose, onAdded }: { onClose: () => void; onAdded: (category: Category) => void }) {
  const [snapshot, send] = useMachine(addCategoryMachine);
  const adding = snapshot.matches('adding');
  const { name, description, error } = snapshot.context;

  useEffect(() => {
    if (snapshot.matches('added') && snapshot.output?.category) onAdded(snapshot.output.category);
    else if (snapshot.matches('cancelled')) onClose();
  }, [snapshot, onAdded, onClose]);

  return (
    <Modal title="Add Category" description="Group items the way your shelves are organised." onClose={() => send({ type: 'CANCEL' })} busy={adding}>
      <form
        id="add-category-form"
        className="form-stack"
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'SUBMIT' });
        }}
      >
        {error ? <ErrorBox message={error} /> : null}
        <div className="field">
          <span className="field-label-row">
            <label htmlFor="category-name">Name</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </span>
          <input
            id="category-name"
            className="input"
            required
            autoFocus
            value={name}
            disabled={adding}
            placeholder="e.g. Electronics"
            onChange={(e) => send({ type: 'CHANGE_NAME', value: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="category-description">
            Description<span className="optional-mark"> (optional)</span>
          </label>
          <textarea
            id="category-description"
            className="input"
            rows={3}
            value={description}
            disabled={adding}
            onChange={(e) => send({ type: 'CHANGE_DESCRIPTION', value: e.target.value })}
          />
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'CANCEL' })} disabled={adding}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={adding || name.trim() === ''}>
            {adding ? 'Adding...' : 'Add Category'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
