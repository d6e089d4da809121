// The Edit Category modal (managers): rename a category and change its description.
import { useEffect, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import type { Category } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { FieldError } from '../../../components/field-error';
import { Modal } from '../../../components/modal';
import { useFocusInvalidField } from '../../../lib/use-focus-invalid-field';
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
  const { name, description, error, invalidField } = snapshot.context;
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusInvalidField(form, attempt, error);
  // A message about one input shows under it and is read with it; the rest above the form.
  const describedBy = (field: 'name' | 'description') =>
    invalidField === field && error ? `edit-category-${field}-error` : undefined;
  const fieldError = (field: 'name' | 'description') => {
    const id = describedBy(field);
    return id && error ? <FieldError id={id} message={error} /> : null;
  };

  useEffect(() => {
    if (snapshot.matches('saved') && snapshot.output?.category) onSaved(snapshot.output.category);
    else if (snapshot.matches('cancelled')) onClose();
  }, [snapshot, onSaved, onClose]);

  return (
    <Modal
      title="Edit Category"
      description={`Rename "${category.name}" or change its description.`}
      onClose={() => send({ type: 'CANCEL' })}
      busy={saving}
    >
      <form
        className="form-stack"
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          setAttempt((n) => n + 1);
          send({ type: 'SUBMIT' });
        }}
      >
        {error && !invalidField ? <ErrorBox message={error} /> : null}
        <div className="field">
          <span className="field-label-row">
            <label htmlFor="edit-category-name">Name</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </span>
          <input
            id="edit-category-name"
            className={invalidField === 'name' ? 'input input-invalid' : 'input'}
            aria-invalid={invalidField === 'name' || undefined}
            aria-describedby={describedBy('name')}
            required
            autoFocus
            value={name}
            disabled={saving}
            onChange={(e) => send({ type: 'CHANGE_NAME', value: e.target.value })}
          />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor="edit-category-description">
            Description<span className="optional-mark"> (optional)</span>
          </label>
          <textarea
            id="edit-category-description"
            className={invalidField === 'description' ? 'input input-invalid' : 'input'}
            aria-invalid={invalidField === 'description' || undefined}
            aria-describedby={describedBy('description')}
            rows={3}
            value={description}
            disabled={saving}
            onChange={(e) => send({ type: 'CHANGE_DESCRIPTION', value: e.target.value })}
          />
          {fieldError('description')}
        </div>
        <div className="modal-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => send({ type: 'CANCEL' })}
            disabled={saving}
          >
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
