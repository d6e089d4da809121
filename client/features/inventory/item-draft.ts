// An item as typed into a form (strings, as inputs hold them), its validation with a
// message per problem (MESSAGES), and its conversion to the API's snake_case body. Used by
// the Add Item wizard, the /inventory/add page and the Edit page.
import type { CreateItemBody, Item, UpdateItemBody } from '../../../shared/inventory';
import { checkBarcode } from '../../../shared/barcode';
import { checkImageUrl } from '../../../shared/image-url';
import { messageForInput, refusedField } from '../../lib/refused-field';

export interface ItemDraft {
  name: string;
  description: string;
  sku: string;
  categoryId: string;
  price: string;
  imageUrl: string;
  quantity: string;
  threshold: string;
  expiryDate: string;
  barcode: string;
}

export type DraftField = keyof ItemDraft;

export const EMPTY_DRAFT: ItemDraft = {
  name: '',
  description: '',
  sku: '',
  categoryId: '',
  price: '',
  imageUrl: '',
  quantity: '',
  threshold: '',
  expiryDate: '',
  barcode: '',
};

/** The threshold field of a new item: the store's default when known, else empty. */
export function startingThreshold(defaultThreshold: number | null | undefined): string {
  return typeof defaultThreshold === 'number' && Number.isInteger(defaultThreshold) && defaultThreshold >= 0
    ? String(defaultThreshold)
    : '';
}

export const MESSAGES = {
  required: 'Please fill in all required fields',
  requiredCategory: 'Please fill in all required fields including category',
  price: 'Price must be a number of 0 or more',
  priceNegative: 'Price cannot be negative',
  priceCents: 'Price can have at most 2 decimals',
  quantity: 'Quantity must be a whole number of 0 or more',
  quantityNegative: 'Quantity cannot be negative',
  threshold: 'Stock threshold must be a whole number of 0 or more',
  thresholdNegative: 'Stock threshold cannot be negative',
  imageUrl: 'Image URL must be a valid URL',
  imageUrlHttps: 'Image URL must start with https://',
  expiryDate: 'Expiry date must be a valid date',
} as const;

/** Which wizard step holds each field, with the optional expiry date on step 3. */
export const STEP_OF: Record<DraftField, 1 | 2 | 3> = {
  name: 1,
  description: 1,
  sku: 1,
  categoryId: 1,
  price: 2,
  imageUrl: 2,
  quantity: 3,
  threshold: 3,
  expiryDate: 3,
  barcode: 1,
};

export interface DraftProblem {
  field: DraftField;
  message: string;
}

const blank = (value: string) => value.trim() === '';
const wholeNumber = (value: string) => /^\d+$/.test(value.trim());
/** '-3', '-0.5': a number below zero, which gets its own message rather than a format one. */
const negative = (value: string) => Number(value.trim()) < 0;
/** A price as typed: a number of 0 or more ('4.5', '.99', '1e3'), or null. */
const priceOf = (value: string): number | null => {
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : null;
};
/** Whole cents: '4.50' and '4.500' are, '4.505' is not (prices are kept to the cent). */
const inCents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/** An address the item's picture may have: https only (shared/image-url.ts), as the server checks. */
export function isValidUrl(value: string): boolean {
  const checked = checkImageUrl(value);
  return checked.ok && checked.url !== null;
}

function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * The first problem with a draft, in the order a user fixes them: every required field
 * filled, a category that exists, then the number, URL and date formats.
 */
export function firstProblem(draft: ItemDraft, categoryIds: readonly string[]): DraftProblem | null {
  const required: DraftField[] = ['name', 'sku', 'categoryId', 'price', 'quantity', 'threshold'];
  const missing = required.find((field) => blank(draft[field]));
  if (missing) return { field: missing, message: MESSAGES.required };
  if (!categoryIds.includes(draft.categoryId)) return { field: 'categoryId', message: MESSAGES.requiredCategory };
  const price = priceOf(draft.price);
  if (price === null)
    return { field: 'price', message: negative(draft.price) ? MESSAGES.priceNegative : MESSAGES.price };
  if (!inCents(price)) return { field: 'price', message: MESSAGES.priceCents };
  if (!wholeNumber(draft.quantity))
    return { field: 'quantity', message: negative(draft.quantity) ? MESSAGES.quantityNegative : MESSAGES.quantity };
  if (!wholeNumber(draft.threshold))
    return { field: 'threshold', message: negative(draft.threshold) ? MESSAGES.thresholdNegative : MESSAGES.threshold };
  if (!blank(draft.imageUrl) && !isValidUrl(draft.imageUrl)) {
    const http = checkImageUrl(draft.imageUrl);
    return {
      field: 'imageUrl',
      message: !http.ok && http.problem === 'not-https' ? MESSAGES.imageUrlHttps : MESSAGES.imageUrl,
    };
  }
  if (!blank(draft.expiryDate) && !isValidDate(draft.expiryDate))
    return { field: 'expiryDate', message: MESSAGES.expiryDate };
  if (!blank(draft.barcode)) {
    // The same check as the server's (shared/barcode.ts), so its message shows before a round trip.
    const barcode = checkBarcode(draft.barcode);
    if (!barcode.ok) return { field: 'barcode', message: barcode.error };
  }
  return null;
}

export function toCreateBody(draft: ItemDraft): CreateItemBody {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    sku: draft.sku.trim(),
    category_id: draft.categoryId,
    quantity: parseInt(draft.quantity, 10),
    price: Math.round(parseFloat(draft.price) * 100) / 100,
    threshold: parseInt(draft.threshold, 10),
    image_url: blank(draft.imageUrl) ? null : draft.imageUrl.trim(),
    expiry_date: blank(draft.expiryDate) ? null : draft.expiryDate,
    barcode: blank(draft.barcode) ? null : draft.barcode.trim(),
  };
}

export function draftFromItem(item: Item): ItemDraft {
  return {
    name: item.name,
    description: item.description ?? '',
    sku: item.sku,
    categoryId: item.categoryId,
    price: item.price.toFixed(2),
    imageUrl: item.imageUrl ?? '',
    quantity: String(item.quantity),
    threshold: String(item.threshold),
    expiryDate: item.expiryDate ?? '',
    barcode: item.barcode ?? '',
  };
}

/** Only the fields the user changed, as a partial update body. */
export function changedBody(original: Item, draft: ItemDraft): UpdateItemBody {
  const next = toCreateBody(draft);
  const body: UpdateItemBody = {};
  if (next.name !== original.name) body.name = next.name;
  if ((next.description ?? '') !== (original.description ?? '')) body.description = next.description;
  if (next.sku !== original.sku) body.sku = next.sku;
  if (next.category_id !== original.categoryId) body.category_id = next.category_id;
  if (next.quantity !== original.quantity) body.quantity = next.quantity;
  if (next.price !== original.price) body.price = next.price;
  if (next.threshold !== original.threshold) body.threshold = next.threshold;
  if ((next.image_url ?? null) !== (original.imageUrl ?? null)) body.image_url = next.image_url ?? null;
  if ((next.expiry_date ?? null) !== (original.expiryDate ?? null)) body.expiry_date = next.expiry_date ?? null;
  if ((next.barcode ?? null) !== (original.barcode ?? null)) body.barcode = next.barcode ?? null;
  return body;
}

export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  sku: 'SKU',
  categoryId: 'Category',
  category: 'Category',
  quantity: 'Quantity',
  price: 'Unit Price',
  threshold: 'Stock Threshold',
  imageUrl: 'Image URL',
  expiryDate: 'Expiry Date',
  barcode: 'Barcode',
};

/** Fields whose values differ between two versions of an item (for the conflict notice). */
export function differingFields(a: Item, b: Item): string[] {
  const fields: (keyof Item)[] = [
    'name',
    'description',
    'sku',
    'category',
    'quantity',
    'price',
    'threshold',
    'imageUrl',
    'expiryDate',
    'barcode',
  ];
  return fields.filter((field) => (a[field] ?? null) !== (b[field] ?? null)).map((field) => String(field));
}

/** The form input each body field of the API is (the `field` a refusal names). */
const DRAFT_FIELD_OF: Record<string, DraftField> = {
  name: 'name',
  description: 'description',
  sku: 'sku',
  category_id: 'categoryId',
  price: 'price',
  image_url: 'imageUrl',
  quantity: 'quantity',
  threshold: 'threshold',
  expiry_date: 'expiryDate',
  barcode: 'barcode',
};

/** A save the server refused because of one input: that input and the message to show under it; null otherwise. */
export function refusedProblem(error: unknown): DraftProblem | null {
  const refused = refusedField(error);
  const field = refused ? DRAFT_FIELD_OF[refused.field] : undefined;
  return refused && field ? { field, message: messageForInput(refused, FIELD_LABELS[field] ?? refused.field) } : null;
}
