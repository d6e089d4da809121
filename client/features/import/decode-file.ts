// A CSV file's bytes as text. Spreadsheets save UTF-8 (Excel adds a byte-order mark) or, on
// Windows, the ANSI code page (Windows-1252 in western Europe and the Americas). Bytes that
// are not valid UTF-8 are read as Windows-1252, so "Café" survives either way.
// The code page's table is shared/windows-1252.ts (the exports write it too).
import { decodeWindows1252 } from '../../../shared/windows-1252';

export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

export function decodeFile(bytes: Uint8Array): { text: string; encoding: FileEncoding } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body),
      encoding: bom ? 'utf-8-bom' : 'utf-8',
    };
  } catch {
    return { text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}
