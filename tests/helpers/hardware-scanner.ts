// Types like a USB barcode scanner in keyboard-wedge mode: the code's characters a few
// milliseconds apart, then Enter. Key events go through the DevTools protocol with their
// own timestamps (which become each DOM event's timeStamp), so the timing the page sees is
// the scanner's, not that of a busy test machine: page.keyboard.type took 60-170 ms per
// key here with three test runs sharing two cores, slower than any person types.
import type { Page } from 'playwright-core';

function keyOf(char: string): { key: string; code: string; keyCode: number; text: string } {
  if (/^\d$/.test(char)) return { key: char, code: `Digit${char}`, keyCode: char.charCodeAt(0), text: char };
  if (/^[a-z]$/i.test(char))
    return { key: char, code: `Key${char.toUpperCase()}`, keyCode: char.toUpperCase().charCodeAt(0), text: char };
  return { key: char, code: '', keyCode: 0, text: char };
}

/** Sends `text` then Enter to the focused element, one key every `gapMs` milliseconds (by event time). */
export async function typeLikeScanner(page: Page, text: string, gapMs = 8): Promise<void> {
  const session = await page.context().newCDPSession(page);
  let time = Date.now() / 1000;
  const next = () => (time += gapMs / 1000);
  try {
    for (const char of text) {
      const key = keyOf(char);
      const timestamp = next();
      await session.send('Input.dispatchKeyEvent', {
        type: 'keyDown',
        key: key.key,
        code: key.code,
        windowsVirtualKeyCode: key.keyCode,
        text: key.text,
        timestamp,
      });
      await session.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: key.key,
        code: key.code,
        windowsVirtualKeyCode: key.keyCode,
        timestamp: timestamp + 0.002,
      });
    }
    const timestamp = next();
    await session.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      key: 'Enter',
      code: 'Enter',
      windowsVirtualKeyCode: 13,
      text: '\r',
      timestamp,
    });
    await session.send('Input.dispatchKeyEvent', {
      type: 'keyUp',
      key: 'Enter',
      code: 'Enter',
      windowsVirtualKeyCode: 13,
      timestamp: timestamp + 0.002,
    });
  } finally {
    await session.detach();
  }
}
