// Windows-1252 (the "ANSI" code page of Windows in western Europe and the Americas) both
// ways, by an explicit table rather than TextDecoder/TextEncoder: TextEncoder writes only
// UTF-8, and Node builds without full ICU read the 'windows-1252' label as Latin-1 (€
// becomes U+0080). The code page is fixed since 1998, so a 32-entry table is all it takes:
// bytes 0x80-0x9F are the characters below, every other byte is its own code point.

const HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const BYTE_OF = new Map<number, number>(Array.from(HIGH, (char, i) => [char.charCodeAt(0), 0x80 + i]));

export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    parts.push(
      String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? HIGH.charCodeAt(b - 0x80) : b))),
    );
  }
  return parts.join('');
}

/** The byte of one UTF-16 code unit, or undefined when Windows-1252 has no such character. */
function byteOf(code: number): number | undefined {
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  return BYTE_OF.get(code);
}

/** Characters of the text Windows-1252 cannot hold (a Polish ł, a Greek letter, an emoji), at most `max` of them. */
export function outsideWindows1252(text: string, max = 3): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (char.length === 1 && byteOf(char.charCodeAt(0)) !== undefined) continue;
    found.add(char);
    if (found.size >= max) break;
  }
  return [...found];
}

/**
 * The text in Windows-1252. A character the code page cannot hold becomes "?", as Excel's
 * own "CSV" (ANSI) save writes it; callers check outsideWindows1252 first and choose
 * UTF-8 instead when anything would be lost.
 */
export function encodeWindows1252(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const byte = byteOf(code);
    // A character outside the basic plane is two code units and one "?".
    if (byte === undefined && code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
    bytes[n++] = byte ?? 0x3f;
  }
  return bytes.subarray(0, n);
}
