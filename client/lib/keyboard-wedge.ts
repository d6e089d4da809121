// Tells a hardware barcode scanner from a person typing. USB and Bluetooth scanners in
// "keyboard wedge" mode type the code as keystrokes a few milliseconds apart and finish
// with Enter; people type far slower and rarely keep every gap under 50 ms. A burst of at
// least MIN_LENGTH characters, each within MAX_GAP_MS of the one before, ended by a fast
// Enter, is a scan. Pure: the caller passes in each key and the time it arrived.

export const WEDGE_MAX_GAP_MS = 50;
export const WEDGE_MIN_LENGTH = 4;

export interface WedgeKey {
  /** KeyboardEvent.key: one printable character, 'Enter', or a named key. */
  key: string;
  /** Milliseconds, any monotonic clock (event.timeStamp). */
  time: number;
  /** Ctrl, Alt or Meta held: a shortcut, never part of a scan (Shift is: scanners shift capitals). */
  withModifier?: boolean;
}

export interface WedgeOptions {
  maxGapMs?: number;
  minLength?: number;
}

export interface WedgeDetector {
  /** Feeds one keystroke; returns the scanned code when this key (an Enter) completes one. */
  feed(key: WedgeKey): string | null;
  /** Characters of the burst in progress (for a caller that wants to undo what was typed). */
  pending(): string;
  reset(): void;
}

export function createWedgeDetector({
  maxGapMs = WEDGE_MAX_GAP_MS,
  minLength = WEDGE_MIN_LENGTH,
}: WedgeOptions = {}): WedgeDetector {
  let buffer = '';
  let lastTime = -Infinity;

  const reset = () => {
    buffer = '';
    lastTime = -Infinity;
  };

  return {
    feed({ key, time, withModifier }) {
      if (withModifier) {
        reset();
        return null;
      }
      const fast = time - lastTime <= maxGapMs;
      if (key === 'Enter') {
        const code = fast && buffer.length >= minLength ? buffer : null;
        reset();
        return code;
      }
      if (key.length !== 1) {
        // Shift arrives before each capital a scanner types; other named keys end a burst.
        if (key !== 'Shift') reset();
        return null;
      }
      buffer = fast ? buffer + key : key;
      lastTime = time;
      return null;
    },
    pending: () => buffer,
    reset,
  };
}
