// Item barcodes: what the API, the forms, the CSV import and the scanner all accept.
// A code of 8, 12 or 13 digits is a retail code (EAN-8, UPC-A, EAN-13) and must carry a
// correct check digit: a mistyped digit is caught at entry, not at the till. Anything else
// is free Code 128 text (printable ASCII), which is what stores print on their own labels.

export type BarcodeKind = 'ean13' | 'upca' | 'ean8' | 'code128';

export const BARCODE_MAX_LENGTH = 48;

export type BarcodeCheck = { ok: true; code: string; kind: BarcodeKind } | { ok: false; error: string };

const RETAIL_KINDS: Record<number, { kind: BarcodeKind; name: string }> = {
  8: { kind: 'ean8', name: 'EAN-8' },
  12: { kind: 'upca', name: 'UPC-A' },
  13: { kind: 'ean13', name: 'EAN-13' },
};

/**
 * The GS1 check digit for the digits before it: from the right, weights 3, 1, 3, ...
 * (the same rule for EAN-8, UPC-A and EAN-13).
 */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Checks a barcode as typed or scanned (surrounding spaces are dropped). */
export function checkBarcode(input: string): BarcodeCheck {
  const code = input.trim();
  if (code.length === 0) return { ok: false, error: 'Barcode is empty' };
  if (code.length > BARCODE_MAX_LENGTH)
    return { ok: false, error: `Barcode can have at most ${BARCODE_MAX_LENGTH} characters` };
  const retail = /^\d+$/.test(code) ? RETAIL_KINDS[code.length] : undefined;
  if (retail) {
    const expected = gs1CheckDigit(code.slice(0, -1));
    if (Number(code.at(-1)) !== expected) {
      return { ok: false, error: `Barcode check digit is wrong (${retail.name}, expected ${expected})` };
    }
    return { ok: true, code, kind: retail.kind };
  }
  if (!/^[\x20-\x7e]+$/.test(code))
    return { ok: false, error: 'Barcode can only hold letters, digits and printable symbols' };
  return { ok: true, code, kind: 'code128' };
}
