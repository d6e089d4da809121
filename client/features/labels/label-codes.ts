// The two codes on a label, drawn as SVG by bwip-js (its browser build, loaded only when
// the labels page needs it): a QR code with the item's page URL, so any phone camera opens
// the item, and a Code 128 of the item's barcode, or of its SKU when it has none, for
// hand scanners and our own scanner.
import type { Item } from '../../../shared/inventory';

export interface LabelCodes {
  /** The URL inside the QR code. */
  url: string;
  /** The text inside the Code 128. */
  code: string;
  qrSvg: string;
  code128Svg: string;
}

export const itemUrl = (origin: string, itemId: string) => `${origin}/inventory/${encodeURIComponent(itemId)}`;

export const linearCodeOf = (item: Pick<Item, 'barcode' | 'sku'>) => item.barcode || item.sku;

/** SVG as a data: URL (CSP allows data: images); an <img> keeps the page's DOM small. */
const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export async function drawLabelCodes(items: readonly Item[], origin: string): Promise<Record<string, LabelCodes>> {
  const { qrcode, code128, drawingSVG } = await import('bwip-js/browser');
  const codes: Record<string, LabelCodes> = {};
  for (const item of items) {
    const url = itemUrl(origin, item.id);
    const code = linearCodeOf(item);
    // Quiet zones are drawn in (padding, in modules): a label's edge may be right beside the code.
    const qrSvg = qrcode({ bcid: 'qrcode', text: url, paddingwidth: 2, paddingheight: 2 }, drawingSVG());
    // No text under the bars: the label prints the code as real text, which stays sharp.
    const code128Svg = code128({ bcid: 'code128', text: code, height: 10, paddingwidth: 10 }, drawingSVG());
    codes[item.id] = { url, code, qrSvg: svgUrl(qrSvg), code128Svg: svgUrl(code128Svg) };
  }
  return codes;
}
