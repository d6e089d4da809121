// The two codes on a label, drawn as SVG by bwip-js (its browser build, loaded only when
// the labels page needs it): a QR code with the item's page URL, so any phone camera opens
// the item, and a linear code for hand scanners, tills and our own scanner: an EAN-13 symbol
// when the item's barcode is a valid EAN-13 (what a retail till expects), else a Code 128 of
// its barcode, or of its SKU when it has none.
import { checkBarcode } from '../../../shared/barcode';
import type { Item } from '../../../shared/inventory';

export type LinearSymbology = 'ean13' | 'code128';

export interface LabelCodes {
  /** The URL inside the QR code. */
  url: string;
  /** The text inside the linear code. */
  code: string;
  symbology: LinearSymbology;
  qrSvg: string;
  linearSvg: string;
}

export const itemUrl = (origin: string, itemId: string) => `${origin}/inventory/${encodeURIComponent(itemId)}`;

export const linearCodeOf = (item: Pick<Item, 'barcode' | 'sku'>) => item.barcode || item.sku;

/** EAN-13 only for a barcode of 13 digits whose check digit is right (shared/barcode.ts); a SKU is never a retail code. */
export function symbologyOf(item: Pick<Item, 'barcode'>): LinearSymbology {
  if (!item.barcode) return 'code128';
  const checked = checkBarcode(item.barcode);
  return checked.ok && checked.kind === 'ean13' ? 'ean13' : 'code128';
}

export const symbologyName = (symbology: LinearSymbology) => (symbology === 'ean13' ? 'EAN-13' : 'Code 128');

/** SVG as a data: URL (CSP allows data: images); an <img> keeps the page's DOM small. */
const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export async function drawLabelCodes(items: readonly Item[], origin: string): Promise<Record<string, LabelCodes>> {
  const { qrcode, code128, ean13, drawingSVG } = await import('bwip-js/browser');
  const codes: Record<string, LabelCodes> = {};
  for (const item of items) {
    const url = itemUrl(origin, item.id);
    const code = linearCodeOf(item);
    const symbology = symbologyOf(item);
    // Quiet zones are drawn in (padding, in modules): a label's edge may be right beside the code.
    const qrSvg = qrcode({ bcid: 'qrcode', text: url, paddingwidth: 2, paddingheight: 2 }, drawingSVG());
    // No text under the bars: the label prints the code as real text, which stays sharp.
    // EAN-13 asks for 11 modules of quiet zone on the left (7 on the right).
    const linearSvg =
      symbology === 'ean13'
        ? ean13({ bcid: 'ean13', text: code, height: 10, paddingwidth: 11 }, drawingSVG())
        : code128({ bcid: 'code128', text: code, height: 10, paddingwidth: 10 }, drawingSVG());
    codes[item.id] = { url, code, symbology, qrSvg: svgUrl(qrSvg), linearSvg: svgUrl(linearSvg) };
  }
  return codes;
}
