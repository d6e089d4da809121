// A CSV file's bytes as text. Spreadsheets save UTF-8 (Excel adds a byte-order mark) or, on
// Windows, the ANSI code page (Windows-1252 in western Europe and the Americas). Bytes that
// are not valid UTF-8 are read as Windows-1252, so "Café" survives either way.

export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

export function decodeFile(bytes: Uint8Array): { text: string; encoding: FileEncoding } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), encoding: bom ? 'utf-8-bom' : 'utf-8' };
  } catch {
    return { text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}

// Bytes 0x80-0x9F of Windows-1252 (€, ‘ ’ “ ”, –, —, …); every other byte is its own code
// point. Decoded here rather than by TextDecoder('windows-1252'): Node builds without full
// ICU read that label as Latin-1 and turn € into U+0080.
const HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    parts.push(String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? HIGH.charCodeAt(b - 0x80) : b))));
  }
  return parts.join('');
}
