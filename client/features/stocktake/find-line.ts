// Which line of the session a scanned or typed code names: one of our item URLs (the QR on
// our labels), a barcode (a UPC-A is also read as an EAN-13 with a leading 0, and the other
// way round) or a SKU. Matched against the session's own lines, so it works with no signal.
import type { StocktakeLine } from '../../../shared/stocktake';

const ITEM_PATH = /\/inventory\/([0-9a-f-]{36})\/?$/i;

function alternates(code: string): string[] {
  if (/^\d{12}$/.test(code)) return [code, `0${code}`];
  if (/^0\d{12}$/.test(code)) return [code, code.slice(1)];
  return [code];
}

export function findLine(lines: readonly StocktakeLine[], text: string): StocktakeLine | null {
  const code = text.trim();
  if (!code) return null;
  const url = ITEM_PATH.exec(code);
  if (url) return lines.find((l) => l.itemId === url[1]!.toLowerCase()) ?? null;
  const codes = alternates(code);
  return (
    lines.find((l) => l.barcode !== null && codes.includes(l.barcode)) ??
    lines.find((l) => l.sku.toLowerCase() === code.toLowerCase()) ??
    null
  );
}

/** Lines whose name, SKU or barcode contains the query (case-insensitive). */
export function filterLines(lines: readonly StocktakeLine[], query: string): StocktakeLine[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...lines];
  return lines.filter(
    (l) => l.name.toLowerCase().includes(q) || l.sku.toLowerCase().includes(q) || (l.barcode ?? '').includes(q),
  );
}
