// Theme choice and toasts: the stored value is used only if it is exactly light or dark,
// else the OS preference, else light; toasts last 3 s, a few at most (never 20, and few
// enough not to cover the page).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseStoredTheme, resolveTheme } from '../../client/lib/theme.js';
import { currentToasts, dismissToast, MAX_TOASTS, showToast, TOAST_DURATION_MS } from '../../client/lib/toasts.js';

afterEach(() => {
  for (const t of currentToasts()) dismissToast(t.id);
  vi.useRealTimers();
});

describe('theme', () => {
  it('accepts only light or dark from storage', () => {
    expect(parseStoredTheme('dark')).toBe('dark');
    expect(parseStoredTheme('light')).toBe('light');
    expect(parseStoredTheme('Dark')).toBeNull();
    expect(parseStoredTheme('system')).toBeNull();
    expect(parseStoredTheme(null)).toBeNull();
  });

  it('falls back to the OS preference, then light', () => {
    expect(resolveTheme('dark', 'light')).toBe('dark');
    expect(resolveTheme('blue', 'dark')).toBe('dark');
    expect(resolveTheme(null, null)).toBe('light');
  });
});

describe('toasts', () => {
  it('disappear after 3 seconds', () => {
    vi.useFakeTimers();
    showToast('Saved', 'success');
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toHaveLength(0);
  });

  it('keep a few at most (never more than 20), dropping the oldest', () => {
    vi.useFakeTimers();
    expect(MAX_TOASTS).toBeLessThanOrEqual(20);
    for (let i = 1; i <= MAX_TOASTS + 5; i++) showToast(`Toast ${i}`);
    const shown = currentToasts();
    expect(shown).toHaveLength(MAX_TOASTS);
    expect(shown[0]!.message).toBe('Toast 6');
    expect(shown.at(-1)!.message).toBe(`Toast ${MAX_TOASTS + 5}`);
  });
});
