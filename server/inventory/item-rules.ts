// Field rules for items, shared by create and update decisions.
import { ValidationError } from '../errors.js';
import type { ItemFields } from '../../shared/inventory-events.js';
import { checkBarcode } from '../../shared/barcode.js';
import { checkImageUrl as checkSharedImageUrl } from '../../shared/image-url.js';

// Each refusal names its body field (snake_case, as sent) so the 400 carries it: a form
// shows the message at that input.
function requireText(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new ValidationError(`${field} is required`, field);
  return trimmed;
}

function requireCount(value: number, field: string): number {
  if (value < 0) throw new ValidationError(`${field} cannot be negative`, field);
  if (!Number.isInteger(value)) throw new ValidationError(`${field} must be a whole number`, field);
  return value;
}

export function checkPrice(value: number): number {
  if (value < 0) throw new ValidationError('price cannot be negative', 'price');
  if (!Number.isFinite(value)) throw new ValidationError('price must be a number', 'price');
  if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6)
    throw new ValidationError('price must have at most 2 decimals', 'price');
  if (value >= 1e10) throw new ValidationError('price is too large', 'price');
  return Math.round(value * 100) / 100;
}

/** No picture (null or blank), or an https URL (shared/image-url.ts says why only https). */
export function checkImageUrl(value: string | null): string | null {
  const checked = checkSharedImageUrl(value);
  if (!checked.ok) throw new ValidationError('image_url must be an https URL', 'image_url');
  return checked.url;
}

export function checkExpiryDate(value: string | null): string | null {
  if (value === null || value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(`${value}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new ValidationError('expiry_date must be a date (YYYY-MM-DD)', 'expiry_date');
  }
  return value;
}

/** No barcode (null or empty), or a valid one as shared/barcode.ts reads it (trimmed). */
export function checkBarcodeValue(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const checked = checkBarcode(value);
  if (!checked.ok) throw new ValidationError(checked.error, 'barcode');
  return checked.code;
}

/** Normalises one field's value, throwing a ValidationError that names it. */
export function checkField<K extends keyof ItemFields>(field: K, value: ItemFields[K]): ItemFields[K] {
  switch (field) {
    case 'name':
      return requireText(value as string, 'name') as ItemFields[K];
    case 'sku':
      return requireText(value as string, 'sku') as ItemFields[K];
    case 'description':
      return (value as string).trim() as ItemFields[K];
    case 'categoryId':
      return requireText(value as string, 'category_id') as ItemFields[K];
    case 'quantity':
      return requireCount(value as number, 'quantity') as ItemFields[K];
    case 'threshold':
      return requireCount(value as number, 'threshold') as ItemFields[K];
    case 'price':
      return checkPrice(value as number) as ItemFields[K];
    case 'imageUrl':
      return checkImageUrl(value as string | null) as ItemFields[K];
    case 'expiryDate':
      return checkExpiryDate(value as string | null) as ItemFields[K];
    case 'barcode':
      return checkBarcodeValue(value as string | null) as ItemFields[K];
    default:
      throw new ValidationError(`Unknown field ${String(field)}`);
  }
}

export function checkFields(fields: ItemFields): ItemFields {
  const out = {} as ItemFields;
  for (const key of Object.keys(fields) as (keyof ItemFields)[]) {
    (out as any)[key] = checkField(key, fields[key]);
  }
  return out;
}
