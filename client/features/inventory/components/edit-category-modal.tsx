// The Edit Category modal (managers): rename a category and change its description.
import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import type { Category } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { editCategoryMachine } from '../edit-category.machine';

export function EditCategoryModal({
  category,
  onClose,
  onSaved,
}: {
  category: Category;
  onClose: () => void;
  onSaved: (category: Category) => void;
}) {
  const [snapshot, send] = useMachine(editCategoryMachine, { input: { category } });
  const saving = snapshot.matches('saving');
  const { name, description, error } = snapshot.context;

  useEffect(() => {
    if (snapshot.matches('saved') && snapshot.output?.category) onSaved(snapshot.output.category);
    else if (snapshot.matches('cancelled')) onClose();
  }, [snapshot, onSaved, onClose]);

  return (
    <Modal title="Edit Category" description={`Rename "${category.name}" or change its description.`} onClose={() => send({ type: 'CANCEL' })} busy={saving}>
      <form
        className="form-stack"
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'SUBMIT' });
        }}
      >
        {error ? <ErrorBox message={error} /> : null}
        <div className="field">
          <span className="field-label-row">
            <label htmlFor="edit-category-name">Name</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </span>
          <input
            id="edit-category-name"
            className="input"
            required
            autoFocus
            value={name}
            disabled={saving}
            onChange={(e) => send({ type: 'CHANGE_NAME', value: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="edit-category-description">
            Description<span className="optional-mark"> (optional)</span>
          </label>
          <textarea
            id="edit-category-description"
            className="input"
            rows={3}
            value={description}
            disabled={saving}
            onChange={(e) => send({ type: 'CHANGE_DESCRIPTION', value: e.target.value })}
          />
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'CANCEL' })} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving || name.trim() === ''}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
