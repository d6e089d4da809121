// An on/off choice: a labelled switch with a line saying what it does. Used by Settings
// and Alert Settings, styled in styles/components.css.
import { useId } from 'react';

export interface SwitchRowProps {
  label: string;
  hint: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}

export function SwitchRow({ label, hint, checked, disabled, onChange }: SwitchRowProps) {
  const id = useId();
  return (
    <div className="switch-row">
      <div className="switch-row-text">
        <label htmlFor={id} className="switch-row-label">
          {label}
        </label>
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}
