// Appearance: light, dark or the system's choice. It applies at once and is kept in this
// browser (local storage), since each device has its own light; nothing to save. With
// nothing stored it shows the theme in use: Light, the default, unless the device asks for dark.
import { useEffect, useState } from 'react';
import { setThemeChoice, storedChoice, useTheme, type ThemeChoice } from '../../../lib/theme';
import { Icon, type IconName } from '../../../components/icons';

const CHOICES: { key: ThemeChoice; label: string; hint: string; icon: IconName }[] = [
  { key: 'light', label: 'Light', hint: 'Bright surfaces, dark text', icon: 'sun' },
  { key: 'dark', label: 'Dark', hint: 'Easy on the eyes at night', icon: 'moon' },
  { key: 'system', label: 'System', hint: 'Follow this device', icon: 'settings' },
];

export function AppearanceTab() {
  const [choice, setChoice] = useState<ThemeChoice>(storedChoice);
  const theme = useTheme();
  // The header's theme toggle changes the choice too.
  useEffect(() => setChoice(storedChoice()), [theme]);
  const choose = (next: ThemeChoice) => {
    setChoice(next);
    setThemeChoice(next);
  };
  return (
    <fieldset className="theme-choices">
      <legend className="field-label">Theme</legend>
      {CHOICES.map((c) => (
        <label key={c.key} className={`theme-choice ${choice === c.key ? 'active' : ''}`}>
          <input type="radio" name="theme" value={c.key} checked={choice === c.key} onChange={() => choose(c.key)} />
          <Icon name={c.icon} size={20} />
          <span className="theme-choice-text">
            <span className="theme-choice-label">{c.label}</span>
            <span className="field-hint">{c.hint}</span>
          </span>
        </label>
      ))}
      <p className="settings-aside">Applies at once and is remembered on this device.</p>
    </fieldset>
  );
}
