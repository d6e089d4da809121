// What each Undo button of the inventory screens says it takes back: with several
// toasts showing, "Undo -1 Crème fraîche 1 kg" and "Undo price change on Tape Measure" say
// which is which, where a row of plain "Undo"s did not.
import type { UpdateItemBody } from '../../../shared/inventory';

const signed = (delta: number) => `${delta > 0 ? '+' : ''}${delta}`;

/** "-1 Crème fraîche 1 kg", or with a reason "+3 Spirit Level (restock)". */
export function adjustChange(name: string, delta: number, reason?: string): string {
  return `${signed(delta)} ${name}${reason ? ` (${reason})` : ''}`;
}

const EDIT_FIELDS: Record<keyof Omit<UpdateItemBody, 'expected_version'>, string> = {
  name: 'name',
  description: 'description',
  sku: 'SKU',
  category_id: 'category',
  quantity: 'quantity',
  price: 'price',
  threshold: 'threshold',
  image_url: 'picture',
  expiry_date: 'expiry date',
  barcode: 'barcode',
};

/** "price change on Tape Measure", "price and threshold change on …", or "changes to …" for many fields. */
export function editChange(name: string, body: UpdateItemBody): string {
  const fields = Object.keys(body)
    .filter((key): key is keyof typeof EDIT_FIELDS => key in EDIT_FIELDS)
    .map((key) => EDIT_FIELDS[key]);
  if (fields.length === 0 || fields.length > 3) return `changes to ${name}`;
  const listed = fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
  return `${listed} change on ${name}`;
}

export const addChange = (name: string) => `adding ${name}`;
export const deleteChange = (name: string) => `deleting ${name}`;
export const addCategoryChange = (name: string) => `adding category ${name}`;
export const editCategoryChange = (name: string) => `changes to category ${name}`;
