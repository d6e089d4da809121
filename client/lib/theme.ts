// Theme preference: the stored choice if it is exactly 'light' or 'dark',
// else the operating system preference, else light. The class on <html> follows it and the
// choice is saved under the `theme` key. 'System' (from Settings) is stored as 'system':
// not light or dark, so the start-up rule follows the device, and Settings can tell it
// apart from no choice at all, which it shows as the theme in use (Light unless the
// device asks for dark), never as System.
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
export type ThemeChoice = Theme | 'system';

export const THEME_STORAGE_KEY = 'theme';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function parseStoredTheme(value: string | null | undefined): Theme | null {
  return value === 'light' || value === 'dark' ? value : null;
}

export function systemTheme(): Theme | null {
  if (typeof window === 'undefined' || !window.matchMedia) return null;
  if (window.matchMedia('(prefers-color-scheme: dark)').matches) return 'dark';
  if (window.matchMedia('(prefers-color-scheme: light)').matches) return 'light';
  return null;
}

export function resolveTheme(stored: string | null | undefined, system: Theme | null): Theme {
  return parseStoredTheme(stored) ?? system ?? 'light';
}

/** The choice Settings shows: the stored one, else the theme in use (light by default). */
export function storedChoice(): ThemeChoice {
  const stored = storage()?.getItem(THEME_STORAGE_KEY);
  if (stored === 'system') return 'system';
  return parseStoredTheme(stored) ?? current;
}

/** No explicit light or dark stored: the theme follows the device. */
function followsSystem(): boolean {
  return parseStoredTheme(storage()?.getItem(THEME_STORAGE_KEY)) === null;
}

function applyClass(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove(theme === 'dark' ? 'light' : 'dark');
  root.classList.add(theme);
  root.style.colorScheme = theme;
}

const listeners = new Set<() => void>();
let current: Theme = 'light';

function notify(): void {
  for (const listener of listeners) listener();
}

/** Applies the starting theme and follows OS changes while no explicit choice is stored. */
export function initTheme(): Theme {
  current = resolveTheme(storage()?.getItem(THEME_STORAGE_KEY), systemTheme());
  applyClass(current);
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    if (!followsSystem()) return;
    current = resolveTheme(null, systemTheme());
    applyClass(current);
    notify();
  });
  return current;
}

export function setThemeChoice(choice: ThemeChoice): void {
  storage()?.setItem(THEME_STORAGE_KEY, choice);
  current = choice === 'system' ? resolveTheme(null, systemTheme()) : choice;
  applyClass(current);
  notify();
}

export function toggleTheme(): void {
  setThemeChoice(current === 'dark' ? 'light' : 'dark');
}

export function currentTheme(): Theme {
  return current;
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => 'light',
  );
}
