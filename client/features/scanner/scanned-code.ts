// What a scanned or typed code refers to: one of our own item URLs (the QR on our labels,
// `/inventory/{id}`), or a barcode to look up. Retail codes have two spellings: a UPC-A is
// an EAN-13 with a leading 0, and readers report either, so both are tried.

export type ScannedCode =
  { kind: 'item-url'; itemId: string; text: string } | { kind: 'barcode'; code: string; alternates: string[] };

const ITEM_PATH = /^\/inventory\/([A-Za-z0-9_-]+)\/?$/;
/** Paths under /inventory that are screens, not items. */
const NOT_ITEMS = new Set(['add', 'labels', 'import', 'category']);

export function parseScannedCode(text: string, origin: string): ScannedCode {
  const trimmed = text.trim();
  const itemId = itemIdFromUrl(trimmed, origin);
  if (itemId) return { kind: 'item-url', itemId, text: trimmed };
  return { kind: 'barcode', code: trimmed, alternates: retailAlternates(trimmed) };
}

/** The item id of a URL of this app (same origin) pointing at an item page; null otherwise. */
function itemIdFromUrl(text: string, origin: string): string | null {
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const match = ITEM_PATH.exec(url.pathname);
  return match && !NOT_ITEMS.has(match[1]!) ? match[1]! : null;
}

function retailAlternates(code: string): string[] {
  if (/^\d{12}$/.test(code)) return [`0${code}`];
  if (/^0\d{12}$/.test(code)) return [code.slice(1)];
  return [];
}
