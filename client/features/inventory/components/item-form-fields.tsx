// The inputs of an item form, one renderer per draft field, shared by the wizard steps,
// the add page and the edit page. The input rules: price min 0 step 0.01, quantity
// and threshold min 0, image URL of URL format. The price is in the store's currency, whose
// symbol its label shows (a currency without cents, like yen, steps by 1).
import type { Category } from '../../../../shared/inventory';
import { FieldError } from '../../../components/field-error';
import type { MoneyFormat } from '../../../../shared/money-format';
import { currencyDecimals, currencySymbol } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import type { DraftField, ItemDraft } from '../item-draft';

export interface FieldsProps {
  fields: DraftField[];
  values: ItemDraft;
  categories: Pick<Category, 'id' | 'name'>[];
  invalidField: DraftField | null;
  /** The message about invalidField, shown under that input and read with it (aria-describedby). */
  error?: string | null;
  onChange: (field: DraftField, value: string) => void;
  idPrefix: string;
  disabled?: boolean;
}

interface FieldSpec {
  label: string;
  required: boolean;
  type?: string;
  step?: string;
  min?: string;
  placeholder?: string;
  hint?: string;
  inputMode?: 'decimal' | 'numeric' | 'url';
}

const SPECS: Record<DraftField, FieldSpec> = {
  name: { label: 'Name', required: true, placeholder: 'e.g. Wireless Headphones' },
  description: { label: 'Description', required: false, placeholder: 'What is it? Size, colour, supplier...' },
  sku: { label: 'SKU', required: true, placeholder: 'e.g. EL-2041' },
  categoryId: { label: 'Category', required: true },
  // The label and step follow the store's currency (priceSpec).
  price: {
    label: 'Unit Price ($)',
    required: true,
    type: 'number',
    step: '0.01',
    min: '0',
    placeholder: '0.00',
    inputMode: 'decimal',
  },
  imageUrl: {
    label: 'Image URL',
    required: false,
    type: 'url',
    placeholder: 'https://example.com/photo.jpg',
    inputMode: 'url',
  },
  quantity: {
    label: 'Quantity',
    required: true,
    type: 'number',
    step: '1',
    min: '0',
    placeholder: '0',
    inputMode: 'numeric',
  },
  threshold: {
    label: 'Stock Threshold',
    required: true,
    type: 'number',
    step: '1',
    min: '0',
    placeholder: '10',
    inputMode: 'numeric',
    hint: 'Alert when stock falls below this number',
  },
  expiryDate: { label: 'Expiry Date', required: false, type: 'date', hint: 'Optional: for perishable goods' },
  barcode: {
    label: 'Barcode',
    required: false,
    placeholder: 'e.g. 4006381333931',
    hint: 'EAN-13, UPC-A or EAN-8 (check digit checked), or your own label text',
  },
};

/** The price field in the store's currency: 'Unit Price (€)'; prices are kept to the cent whatever the currency. */
function priceSpec(money: MoneyFormat): FieldSpec {
  const decimals = Math.min(2, currencyDecimals(money));
  return {
    ...SPECS.price,
    label: `Unit Price (${currencySymbol(money)})`,
    step: decimals === 0 ? '1' : (10 ** -decimals).toFixed(decimals),
    placeholder: (0).toFixed(decimals),
  };
}

export function ItemFormFields({
  fields,
  values,
  categories,
  invalidField,
  error,
  onChange,
  idPrefix,
  disabled,
  labels = {},
}: FieldsProps & { labels?: Partial<Record<DraftField, string>> }) {
  const money = useStoreMoney();
  return (
    <>
      {fields.map((field) => {
        const spec = field === 'price' ? priceSpec(money) : SPECS[field];
        const id = `${idPrefix}-${field}`;
        const hintId = spec.hint ? `${id}-hint` : undefined;
        const invalid = invalidField === field;
        const errorId = invalid && error ? `${id}-error` : undefined;
        const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
        // The asterisk sits beside the label, not in it: the input's `required` says it to
        // assistive technology, and the label stays the field's plain name.
        const label = (
          <span className="field-label-row">
            <label htmlFor={id}>
              {labels[field] ?? spec.label}
              {spec.required ? null : <span className="optional-mark"> (optional)</span>}
            </label>
            {spec.required ? (
              <span className="required-mark" aria-hidden="true">
                *
              </span>
            ) : null}
          </span>
        );
        const common = {
          id,
          className: invalid ? 'input input-invalid' : 'input',
          'aria-invalid': invalid || undefined,
          'aria-describedby': describedBy,
          required: spec.required,
          disabled,
          value: values[field],
        };
        let control;
        if (field === 'categoryId') {
          control = (
            <select {...common} onChange={(e) => onChange(field, e.target.value)}>
              <option value="">{categories.length ? 'Select a category' : 'No categories yet'}</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          );
        } else if (field === 'description') {
          control = (
            <textarea
              {...common}
              rows={3}
              placeholder={spec.placeholder}
              onChange={(e) => onChange(field, e.target.value)}
            />
          );
        } else {
          control = (
            <input
              {...common}
              type={spec.type ?? 'text'}
              step={spec.step}
              min={spec.min}
              inputMode={spec.inputMode}
              placeholder={spec.placeholder}
              onChange={(e) => onChange(field, e.target.value)}
            />
          );
        }
        return (
          <div key={field} className={`field field-${field}`}>
            {label}
            {control}
            {errorId && error ? <FieldError id={errorId} message={error} /> : null}
            {spec.hint ? (
              <p id={hintId} className="field-hint">
                {spec.hint}
              </p>
            ) : null}
          </div>
        );
      })}
    </>
  );
}
