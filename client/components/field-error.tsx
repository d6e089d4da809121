// The message about one input, shown right under it. The input names it in its
// aria-describedby (with `id`), so a screen reader reads it when focus lands there.
import { Icon } from './icons';
import './field-error.css';

export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field-error">
      <Icon name="alert" size={15} className="field-error-icon" />
      <span>{message}</span>
    </p>
  );
}
