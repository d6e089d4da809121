// The Add Category modal: name (required) and description (optional).
import { useEffect, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import type { Category } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { FieldError } from '../../../components/field-error';
import { Modal } from '../../../components/modal';
import { useFocusInvalidField } from '../../../lib/use-focus-invalid-field';
import { addCategoryMachine } from '../add-category.machine';

export function AddCategoryModal({ onClose, onAdded }: { onClose: () => void; onAdded: (category: Category) => void }) {
  const [snapshot, send] = useMachine(addCategoryMachine);
  const adding = snapshot.matches('adding');
  const { name, description, error, invalidField } = snapshot.context;
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusInvalidField(form, attempt, error);
  // A message about one input shows under it and is read with it; the rest above the form.
  const describedBy = (field: 'name' | 'description') =>
    invalidField === field && error ? `category-${field}-error` : undefined;
  const fieldError = (field: 'name' | 'description') => {
    const id = describedBy(field);
    return id && error ? <FieldError id={id} message={error} /> : null;
  };

  useEffect(() => {
    if (snapshot.matches('added') && snapshot.output?.category) onAdded(snapshot.output.category);
    else if (snapshot.matches('cancelled')) onClose();
  }, [snapshot, onAdded, onClose]);

  return (
    <Modal
      title="Add Category"
      description="Group items the way your shelves are organised."
      onClose={() => send({ type: 'CANCEL' })}
      busy={adding}
    >
      <form
        id="add-category-form"
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
            <label htmlFor="category-name">Name</label>
            <span className="required-mark" aria-hidden="true">
              *
            </span>
          </span>
          <input
            id="category-name"
            className={invalidField === 'name' ? 'input input-invalid' : 'input'}
            aria-invalid={invalidField === 'name' || undefined}
            aria-describedby={describedBy('name')}
            required
            autoFocus
            value={name}
            disabled={adding}
            placeholder="e.g. Electronics"
            onChange={(e) => send({ type: 'CHANGE_NAME', value: e.target.value })}
          />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor="category-description">
            Description<span className="optional-mark"> (optional)</span>
          </label>
          <textarea
            id="category-description"
            className={invalidField === 'description' ? 'input input-invalid' : 'input'}
            aria-invalid={invalidField === 'description' || undefined}
            aria-describedby={describedBy('description')}
            rows={3}
            value={description}
            disabled={adding}
            onChange={(e) => send({ type: 'CHANGE_DESCRIPTION', value: e.target.value })}
          />
          {fieldError('description')}
        </div>
        <div className="modal-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => send({ type: 'CANCEL' })}
            disabled={adding}
          >
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
