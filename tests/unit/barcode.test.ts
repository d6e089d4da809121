import { describe, expect, it } from 'vitest';
import { checkBarcode, gs1CheckDigit } from '../../shared/barcode.js';

describe('barcode check', () => {
  it('accepts retail codes with a correct check digit', () => {
    expect(checkBarcode('4006381333931')).toEqual({ ok: true, code: '4006381333931', kind: 'ean13' });
    expect(checkBarcode(' 036000291452 ')).toEqual({ ok: true, code: '036000291452', kind: 'upca' });
    expect(checkBarcode('96385074')).toEqual({ ok: true, code: '96385074', kind: 'ean8' });
  });

  it('refuses a retail code whose check digit is wrong, saying which it expected', () => {
    expect(checkBarcode('4006381333932')).toEqual({
      ok: false,
      error: 'Barcode check digit is wrong (EAN-13, expected 1)',
    });
    expect(checkBarcode('036000291453')).toMatchObject({ ok: false });
    expect(checkBarcode('96385075')).toMatchObject({ ok: false });
  });

  it('takes other printable text as Code 128, and refuses empty, long or unprintable codes', () => {
    expect(checkBarcode('SHELF-A12')).toEqual({ ok: true, code: 'SHELF-A12', kind: 'code128' });
    expect(checkBarcode('123456')).toEqual({ ok: true, code: '123456', kind: 'code128' });
    expect(checkBarcode('   ')).toEqual({ ok: false, error: 'Barcode is empty' });
    expect(checkBarcode('x'.repeat(49))).toMatchObject({ ok: false });
    expect(checkBarcode('café')).toMatchObject({ ok: false });
  });

  it('computes the GS1 check digit', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('9638507')).toBe(4);
  });
});
