// The Add Item modal: a 3-step wizard (details, pricing, stock). The machine decides where
// Next, Back, Cancel and Submit lead and which message to show.
import { useEffect, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import type { Category, Item } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { useFocusInvalidField } from '../../../lib/use-focus-invalid-field';
import { addItemWizardMachine, wizardStep } from '../add-item-wizard.machine';
import type { DraftField } from '../item-draft';
import { ItemFormFields } from './item-form-fields';

const STEPS: { title: string; fields: DraftField[] }[] = [
  { title: 'Details', fields: ['name', 'description', 'sku', 'barcode', 'categoryId'] },
  { title: 'Pricing', fields: ['price', 'imageUrl'] },
  { title: 'Stock', fields: ['quantity', 'threshold', 'expiryDate'] },
];

export function AddItemWizard({
  categories,
  defaultThreshold = null,
  barcode,
  onClose,
  onCreated,
  onAddCategory,
}: {
  categories: Category[];
  /** The store's Default Low-Stock Threshold: the Stock Threshold field starts with it. */
  defaultThreshold?: number | null;
  /** A scanned code the new item should carry (/inventory?barcode=...). */
  barcode?: string;
  onClose: () => void;
  onCreated: (item: Item) => void;
  onAddCategory?: () => void;
}) {
  const [snapshot, send] = useMachine(addItemWizardMachine, {
    input: { categoryIds: categories.map((c) => c.id), defaultThreshold, barcode },
  });
  const submitting = snapshot.matches('submitting');
  const step = wizardStep(snapshot.value);
  const { values, error, invalidField } = snapshot.context;
  const current = STEPS[step - 1]!;
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusInvalidField(form, attempt, error);

  useEffect(() => {
    send({ type: 'CATEGORIES', categoryIds: categories.map((c) => c.id) });
  }, [categories, send]);

  useEffect(() => {
    if (snapshot.matches('created') && snapshot.context.created) onCreated(snapshot.context.created);
    else if (snapshot.matches('cancelled')) onClose();
  }, [snapshot, onCreated, onClose]);

  return (
    <Modal
      title="Add Item"
      description={`Step ${step} of 3: ${current.title}`}
      onClose={() => send({ type: 'CANCEL' })}
      busy={submitting}
    >
      <ol className="wizard-steps" aria-label="Progress">
        {STEPS.map((s, i) => (
          <li
            key={s.title}
            className={i + 1 === step ? 'active' : i + 1 < step ? 'done' : ''}
            aria-current={i + 1 === step ? 'step' : undefined}
          >
            <span className="wizard-step-dot">{i + 1}</span>
            <span className="wizard-step-label">{s.title}</span>
          </li>
        ))}
      </ol>
      <form
        ref={form}
        className="form-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setAttempt((n) => n + 1);
          send({ type: step === 3 ? 'SUBMIT' : 'NEXT' });
        }}
      >
        {/* A message about one input shows at that input (ItemFormFields); the rest here. */}
        {error && !invalidField ? <ErrorBox message={error} /> : null}
        <ItemFormFields
          fields={current.fields}
          values={values}
          categories={categories}
          invalidField={invalidField}
          error={error}
          onChange={(field, value) => send({ type: 'CHANGE', field, value })}
          idPrefix="wizard"
          disabled={submitting}
          labels={{ quantity: 'Initial Quantity' }}
        />
        {step === 1 && categories.length === 0 && onAddCategory ? (
          <p className="field-hint">
            No categories yet.{' '}
            <button type="button" className="link-button" onClick={onAddCategory}>
              Add a category
            </button>{' '}
            first.
          </p>
        ) : null}
        <div className="modal-actions">
          {step === 1 ? (
            <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'CANCEL' })}>
              Cancel
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => send({ type: 'BACK' })}
              disabled={submitting}
            >
              Back
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={submitting}>
            {step < 3 ? 'Next' : submitting ? 'Submitting...' : 'Submit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
