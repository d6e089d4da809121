// The search box every list screen opens with: a magnifier icon and a labelled input.
import { Icon } from './icons';

export interface SearchFieldProps {
  placeholder: string;
  /** What is searched, for screen readers (the placeholder is not a label). */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function SearchField({ placeholder, label, value, onChange }: SearchFieldProps) {
  return (
    <div className="search-field">
      <Icon name="search" size={18} className="search-field-icon" />
      <input type="search" className="input" placeholder={placeholder} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
