// One input of a site or location form: its label (required or optional), and the server's
// or the form's refusal about it under it, read with it.
import type { ReactNode } from 'react';
import { FieldError } from '../../../components/field-error';
import { messageForInput, type RefusedField } from '../../../lib/refused-field';

export function PlaceField({
  id,
  label,
  field,
  refused,
  optional = false,
  hint,
  children,
}: {
  id: string;
  label: string;
  /** The body field (snake_case) a refusal names when it is about this input. */
  field: string;
  refused: RefusedField | null;
  optional?: boolean;
  hint?: string;
  /** The input, given `invalid` and `describedBy` for its aria attributes. */
  children: (props: { invalid: boolean; describedBy: string | undefined; className: string }) => ReactNode;
}) {
  const invalid = refused?.field === field;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <span className="field-label-row">
        <label htmlFor={id}>
          {label}
          {optional ? <span className="optional-mark"> (optional)</span> : null}
        </label>
        {optional ? null : (
          <span className="required-mark" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {children({ invalid, describedBy, className: invalid ? 'input input-invalid' : 'input' })}
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      {invalid && refused ? <FieldError id={errorId} message={messageForInput(refused, label)} /> : null}
    </div>
  );
}
