// The search box every list screen opens with: a magnifier icon and a labelled input.
// A hardware barcode scanner typing into it opens that code's item (use-keyboard-wedge.ts)
// instead of leaving the code as a search.
import { useWedgeKeyDown } from '../lib/use-keyboard-wedge';
import { Icon } from './icons';

export interface SearchFieldProps {
  placeholder: string;
  /** What is searched, for screen readers (the placeholder is not a label). */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function SearchField({ placeholder, label, value, onChange }: SearchFieldProps) {
  const onKeyDown = useWedgeKeyDown((code) => onChange(value.endsWith(code) ? value.slice(0, -code.length) : value));
  return (
    <div className="search-field">
      <Icon name="search" size={18} className="search-field-icon" />
      <input
        type="search"
        className="input"
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
