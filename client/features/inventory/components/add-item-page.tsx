// The full-page add form (/inventory/add, managers): Basic Information, Stock Information
// and Image sections; after success, the new item's page.
import { offerUndo } from '../../../components/undo';
import { addChange } from '../undo-labels';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useFocusInvalidField } from '../../../lib/use-focus-invalid-field';
import { addItemPageMachine } from '../add-item-page.machine';
import type { DraftField } from '../item-draft';
import { isValidUrl } from '../item-draft';
import { ItemFormFields } from './item-form-fields';
import { ItemImage } from './item-image';
import '../inventory.css';

export function AddItemPage() {
  // The scanner sends an unknown code here as ?barcode=, so the new item carries it.
  const [search] = useSearchParams();
  const [snapshot, send] = useMachine(addItemPageMachine, { input: { barcode: search.get('barcode') ?? '' } });
  const navigate = useNavigate();
  const { values, categories, error, invalidField, created } = snapshot.context;
  const submitting = snapshot.matches('submitting');
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusInvalidField(form, attempt, error);

  useEffect(() => {
    if (snapshot.matches('created') && created) {
      offerUndo(`"${created.name}" added`, addChange(created.name), {
        streamId: `item-${created.id}`,
        version: created.version,
      });
      navigate(`/inventory/${created.id}`);
    }
  }, [snapshot, created, navigate]);

  const fieldProps = {
    values,
    categories,
    invalidField,
    error,
    onChange: (field: DraftField, value: string) => send({ type: 'CHANGE', field, value }),
    idPrefix: 'add',
    disabled: submitting,
  };

  return (
    <div className="page page-narrow">
      <Link to="/inventory" className="btn btn-ghost back-link">
        <Icon name="arrow-left" size={18} /> Back to Inventory
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title">Add New Item</h1>
          <p className="page-subtitle">Fields marked * are required.</p>
        </div>
      </header>
      {snapshot.matches('loading') ? <TruckLoader label="Loading categories..." fullScreen={false} /> : null}
      {snapshot.matches('loadFailed') ? (
        <ErrorBox message={error ?? ''} onRetry={() => send({ type: 'RETRY' })} />
      ) : null}
      {!snapshot.matches('loading') && !snapshot.matches('loadFailed') ? (
        <form
          ref={form}
          className="form-sections"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setAttempt((n) => n + 1);
            send({ type: 'SUBMIT' });
          }}
        >
          {/* A message about one input shows at that input (ItemFormFields); the rest here. */}
          {error && !invalidField ? <ErrorBox message={error} /> : null}
          <section className="card form-section">
            <h2 className="card-title">Basic Information</h2>
            <div className="form-grid">
              <ItemFormFields {...fieldProps} fields={['name', 'sku', 'categoryId', 'barcode']} />
            </div>
            <ItemFormFields {...fieldProps} fields={['description']} />
          </section>
          <section className="card form-section">
            <h2 className="card-title">Stock Information</h2>
            <div className="form-grid">
              <ItemFormFields {...fieldProps} fields={['quantity', 'threshold', 'price', 'expiryDate']} />
            </div>
          </section>
          <section className="card form-section">
            <h2 className="card-title">Image</h2>
            <div className="image-field">
              <ItemImage
                url={isValidUrl(values.imageUrl) ? values.imageUrl : null}
                name={values.name || 'New item'}
                className="image-preview"
              />
              <div className="image-field-input">
                <ItemFormFields {...fieldProps} fields={['imageUrl']} />
              </div>
            </div>
          </section>
          <div className="form-actions">
            <Link to="/inventory" className="btn btn-secondary">
              Cancel
            </Link>
            <button type="submit" className="btn btn-primary" disabled={submitting}>
              {submitting ? 'Adding...' : 'Add Item'}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
