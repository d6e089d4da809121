// The Edit page (/inventory/{id}/edit, managers): every field with an image preview, Save
// Changes, Cancel, and Delete Item after a confirmation. A save that lost a race
// shows the conflict notice; an unknown item sends the user to /inventory.
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan } from '../../../lib/session-context';
import { useFocusInvalidField } from '../../../lib/use-focus-invalid-field';
import { toast } from '../../../lib/toasts';
import { editItemMachine } from '../edit-item.machine';
import { isValidUrl, type DraftField } from '../item-draft';
import { ConflictNotice } from './conflict-notice';
import { ItemFormFields } from './item-form-fields';
import { ItemImage } from './item-image';
import '../inventory.css';

export function EditItemPage() {
  const { id = '' } = useParams();
  return <EditItem key={id} id={id} />;
}

function EditItem({ id }: { id: string }) {
  const [snapshot, send] = useMachine(editItemMachine, { input: { id } });
  const navigate = useNavigate();
  const canDelete = useCan('records:delete');
  const { values, categories, error, invalidField, conflict, original } = snapshot.context;
  const saving = snapshot.matches('saving');
  const deleting = snapshot.matches('deleting');
  const busy = saving || deleting;
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusInvalidField(form, attempt, error);

  useEffect(() => {
    if (snapshot.matches('saved')) {
      navigate(`/inventory/${id}`);
    } else if (snapshot.matches('deleted')) {
      navigate('/inventory');
    } else if (snapshot.matches('cancelled')) {
      navigate(`/inventory/${id}`);
    } else if (snapshot.matches('notFound')) {
      toast.error('Item not found');
      navigate('/inventory', { replace: true });
    }
  }, [snapshot, id, navigate, original]);

  const backLink = (
    <Link to={`/inventory/${id}`} className="btn btn-ghost back-link">
      <Icon name="arrow-left" size={18} /> Back to Item
    </Link>
  );

  if (snapshot.matches('loading') || snapshot.matches('loadFailed')) {
    return (
      <div className="page page-narrow">
        {backLink}
        {snapshot.matches('loading') ? (
          <TruckLoader label="Loading item..." fullScreen={false} />
        ) : (
          <ErrorBox
            title="Failed to load inventory data"
            message={error ?? ''}
            onRetry={() => send({ type: 'RETRY' })}
          />
        )}
      </div>
    );
  }

  const fieldProps = {
    values,
    categories,
    invalidField,
    error,
    onChange: (field: DraftField, value: string) => send({ type: 'CHANGE', field, value }),
    idPrefix: 'edit',
    disabled: busy,
  };

  return (
    <div className="page page-narrow">
      <div className="detail-topbar">
        {backLink}
        {canDelete ? (
          <button
            type="button"
            className="btn btn-danger-outline"
            onClick={() => send({ type: 'DELETE' })}
            disabled={busy}
          >
            <Icon name="trash" size={18} /> Delete Item
          </button>
        ) : null}
      </div>
      <header className="page-header">
        <div>
          <h1 className="page-title">Edit Inventory Item</h1>
          <p className="page-subtitle">{original?.name}</p>
        </div>
      </header>

      {snapshot.matches('conflict') && conflict ? (
        <ConflictNotice
          conflict={conflict}
          busy={busy}
          onReload={() => send({ type: 'RELOAD' })}
          onOverwrite={() => send({ type: 'OVERWRITE' })}
        />
      ) : null}

      <form
        ref={form}
        className="form-sections"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setAttempt((n) => n + 1);
          send({ type: snapshot.matches('conflict') ? 'OVERWRITE' : 'SAVE' });
        }}
      >
        {/* A message about one input shows at that input (ItemFormFields); the rest here. */}
        {error && !invalidField ? <ErrorBox message={error} /> : null}
        <section className="card form-section">
          <h2 className="card-title">Image</h2>
          <div className="image-field">
            <ItemImage
              url={isValidUrl(values.imageUrl) ? values.imageUrl : null}
              name={values.name || 'Item'}
              className="image-preview"
            />
            <div className="image-field-input">
              <ItemFormFields {...fieldProps} fields={['imageUrl']} />
            </div>
          </div>
        </section>
        <section className="card form-section">
          <h2 className="card-title">Details</h2>
          <div className="form-grid">
            <ItemFormFields {...fieldProps} fields={['name', 'sku', 'barcode']} />
          </div>
          <ItemFormFields {...fieldProps} fields={['description']} />
          <div className="form-grid">
            <ItemFormFields {...fieldProps} fields={['categoryId', 'expiryDate']} />
          </div>
        </section>
        <section className="card form-section">
          <h2 className="card-title">Stock and Price</h2>
          <div className="form-grid form-grid-3">
            <ItemFormFields {...fieldProps} fields={['quantity', 'threshold', 'price']} />
          </div>
        </section>
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'CANCEL' })} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || snapshot.matches('conflict')}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>

      {snapshot.matches('confirmingDelete') || deleting ? (
        <ConfirmDialog
          title="Delete item"
          message="Are you sure you want to delete this item? This action cannot be undone."
          confirmLabel="Delete Item"
          busyLabel="Deleting..."
          busy={deleting}
          onCancel={() => send({ type: 'CANCEL_DELETE' })}
          onConfirm={() => send({ type: 'CONFIRM_DELETE' })}
        />
      ) : null}
    </div>
  );
}
