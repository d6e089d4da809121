// A CSV text the browser wrote (the import's rejected rows) as the bytes of a format: UTF-8,
// UTF-8 with a byte-order mark, or Windows-1252 through the shared code-page table. Text
// with a character Windows-1252 cannot hold is saved as UTF-8 with a BOM instead (Excel
// reads that too), and the caller is told which characters, to say so.
import type { CsvEncoding, CsvFormat } from '../../shared/csv-format';
import { encodeWindows1252, outsideWindows1252 } from '../../shared/windows-1252';

export interface CsvBlob {
  blob: Blob;
  /** What the bytes are: the format's encoding, or utf-8-bom when Windows-1252 could not hold `unfit`. */
  encoding: CsvEncoding;
  unfit: string[];
}

export function csvBlob(text: string, format: CsvFormat): CsvBlob {
  const unfit = format.encoding === 'windows-1252' ? outsideWindows1252(text) : [];
  const encoding: CsvEncoding = unfit.length ? 'utf-8-bom' : format.encoding;
  if (encoding === 'windows-1252') {
    return {
      blob: new Blob([encodeWindows1252(text) as Uint8Array<ArrayBuffer>], { type: 'text/csv;charset=windows-1252' }),
      encoding,
      unfit,
    };
  }
  const parts = encoding === 'utf-8-bom' ? ['\uFEFF', text] : [text];
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), encoding, unfit };
}
