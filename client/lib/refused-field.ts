// Which input a refused write is about. The server's 400 (and a 409 such as "SKU already
// exists") names it as `field` (the body field, snake_case) beside `error`; a form shows the
// message at that input instead of in a box above the form.
import { ApiError } from './api-client';

export interface RefusedField {
  /** The body field the server named, as sent (`category_id`, `image_url`). */
  field: string;
  message: string;
}

export function refusedField(error: unknown): RefusedField | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null;
  const field = (error.body as { field?: unknown } | null)?.field;
  return typeof field === 'string' && field ? { field, message: error.message } : null;
}

/**
 * The server's message worded for the input it sits under: the snake_case field name that
 * starts it becomes the input's label ("image_url must be an https URL" -> "Image URL must
 * be an https URL"), a "field: " prefix is dropped, and Ajv's shouting NOT is said plainly.
 */
export function messageForInput(refused: RefusedField, label: string): string {
  const { field, message } = refused;
  let text = message;
  if (text.startsWith(`${field}: `)) text = text.slice(field.length + 2);
  else if (text.startsWith(`${field} `)) text = `${label}${text.slice(field.length)}`;
  return text
    .replace('must NOT have more than', 'can have at most')
    .replace('must NOT have fewer than', 'needs at least');
}
