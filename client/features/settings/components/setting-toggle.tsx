// An on/off setting: a labelled switch with a line saying what it does.
import { useId } from 'react';

export function SettingToggle({ label, hint, checked, disabled, onChange }: { label: string; hint: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="setting-toggle">
      <div className="setting-toggle-text">
        <label htmlFor={id} className="setting-toggle-label">
          {label}
        </label>
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      </div>
      <input id={id} type="checkbox" role="switch" className="st-switch" checked={checked} disabled={disabled} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.checked)} />
    </div>
  );
}
