// What a change says to a person, in one sentence: "-5 (sale) Crème fraîche 1 kg, by Sam,
// note: table 4". The activity log, the dashboard's recent activity, the wall display and
// webhooks' summaries all say it with this function, so they never disagree, built from the event
// itself and the names it refers to as they were when it happened. The sentence comes as
// parts with a role each, so a screen can emphasise the numbers and names; the plain text
// is the parts joined. Who made the change is a part of its own: a guest's copy replaces it
// (server/auth/guest-view.ts).
import type { ApprovedLine } from './stocktake.js';
import { importedFrom } from './import.js';
import type { MoneyFormat } from './money-format.js';
import { moneyText } from './money-text.js';

export type SentenceRole = 'subject' | 'delta' | 'field' | 'old' | 'new' | 'who' | 'note';

export interface SentencePart {
  text: string;
  role?: SentenceRole;
}

/** An event as its sentence needs it: its type and data, and the names it refers to as they were then. */
export interface ChangeFacts {
  type: string;
  data: unknown;
  /** The item, category or stocktake the event is about, named as it was just after the event. */
  subject: string;
  /**
   * Names of the categories, items and locations the event refers to by id (categories and
   * items as they were then). An adjustment names its location only when it is given one.
   */
  names?: Record<string, string>;
  /** A stocktake approval's posted differences, by item id (null: not known). */
  lineDeltas?: Record<string, number | null>;
  /** Who counted what a stocktake approval (or the count adjustment it posted) took: the approver is `who`. */
  countedBy?: string[];
  /** The CSV file an import wrote it from. */
  importFile?: string | null;
  /** Set when the event reverts another: that event's facts (null: no longer known), and why. */
  revert?: { original: ChangeFacts | null; reason: string | null };
  /**
   * The store's currency and locale as they were when the event happened: its prices are
   * written in them ("4,50 €"). Without one (a caller that knows no store), plain two decimals.
   */
  money?: MoneyFormat;
}

/** How many approved lines a stocktake approval names before "and N more". */
export const APPROVAL_LINES_SHOWN = 5;
/** Free text (a description) longer than this is cut, with "…". */
const TEXT_MAX = 40;

const part = (text: string, role?: SentenceRole): SentencePart => (role ? { text, role } : { text });

/** A stock change as people write it: -5, +12, ±0. */
export const signedDelta = (n: number) => (n > 0 ? `+${n}` : n === 0 ? '±0' : String(n));

/** A price in the store's money format of the event, or two plain decimals when none is known. */
export const sentenceMoney = (value: unknown, money: MoneyFormat | undefined) =>
  money ? moneyText(value, money) : Number(value).toFixed(2);

const cut = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text);

/** Edited fields in the order a person scans an item: what it is, where, what it costs, then the rest. */
const FIELD_ORDER = [
  'name',
  'code',
  'sku',
  'categoryId',
  'price',
  'threshold',
  'expiryDate',
  'barcode',
  'description',
  'imageUrl',
  'address',
  'timeZone',
];
const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  sku: 'SKU',
  categoryId: 'Category',
  price: 'Price',
  threshold: 'Threshold',
  expiryDate: 'Expiry',
  barcode: 'Barcode',
  description: 'Description',
  imageUrl: 'Picture',
  code: 'Code',
  address: 'Address',
  timeZone: 'Time zone',
};

type Change = { from?: unknown; to?: unknown };

/** One field's value as the sentence shows it. */
function valueText(
  field: string,
  value: unknown,
  names: Record<string, string>,
  money: MoneyFormat | undefined,
): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (field === 'price') return sentenceMoney(value, money);
  if (field === 'categoryId') return names[String(value)] ?? 'a deleted category';
  if (field === 'description') return `“${cut(String(value))}”`;
  return cut(String(value));
}

/** "Price $4.50 → $4.90, Threshold 5 → 8": each changed field, old → new. */
function fieldDiffs(
  changes: Record<string, Change>,
  names: Record<string, string>,
  money: MoneyFormat | undefined,
): SentencePart[] {
  const fields = Object.keys(changes).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const parts: SentencePart[] = [];
  fields.forEach((field, i) => {
    const change = changes[field]!;
    if (i > 0) parts.push(part(', '));
    const label = FIELD_LABELS[field] ?? field;
    if (field === 'imageUrl') {
      // A picture's address says nothing to a person: whether there is one does.
      const had = Boolean(change.from);
      const has = Boolean(change.to);
      parts.push(part(label, 'field'), part(has && !had ? ' added' : had && !has ? ' removed' : ' changed'));
      return;
    }
    parts.push(part(label, 'field'), part(' '), part(valueText(field, change.from, names, money), 'old'), part(' → '));
    parts.push(part(valueText(field, change.to, names, money), 'new'));
  });
  return parts;
}

function rank(field: string): number {
  const i = FIELD_ORDER.indexOf(field);
  return i < 0 ? FIELD_ORDER.length : i;
}

const dataOf = (facts: ChangeFacts) => (facts.data ?? {}) as Record<string, any>;
const subject = (facts: ChangeFacts) => part(facts.subject, 'subject');

/** " at Back room", when the location's name is given. */
function atLocation(facts: ChangeFacts): SentencePart[] {
  const id = dataOf(facts).locationId;
  const name = typeof id === 'string' ? facts.names?.[id] : undefined;
  return name ? [part(' at '), part(name, 'field')] : [];
}

/** "-5 (sale) Crème fraîche 1 kg", and " at Back room" when the store names where. */
function adjustment(facts: ChangeFacts): SentencePart[] {
  const d = dataOf(facts);
  return [part(signedDelta(Number(d.delta)), 'delta'), part(` (${d.reason}) `), subject(facts), ...atLocation(facts)];
}

/** "3 Crème fraîche 1 kg from Back room to Shelf A" */
function move(facts: ChangeFacts): SentencePart[] {
  const d = dataOf(facts);
  const name = (id: unknown) => (typeof id === 'string' ? facts.names?.[id] : undefined) ?? 'a removed location';
  return [
    part(String(d.quantity), 'delta'),
    part(' '),
    subject(facts),
    part(' from '),
    part(name(d.fromLocationId), 'old'),
    part(' to '),
    part(name(d.toLocationId), 'new'),
  ];
}

/** "Milk -2, Eggs +1, and 3 more" */
function approvedLines(facts: ChangeFacts): SentencePart[] {
  const lines = (dataOf(facts).lines ?? []) as ApprovedLine[];
  const parts: SentencePart[] = [];
  lines.slice(0, APPROVAL_LINES_SHOWN).forEach((line, i) => {
    if (i > 0) parts.push(part(', '));
    const delta = facts.lineDeltas?.[line.itemId];
    parts.push(part(facts.names?.[line.itemId] ?? 'an item', 'subject'), part(' '));
    parts.push(
      delta === null || delta === undefined
        ? part(`counted ${line.counted}`, 'new')
        : part(signedDelta(delta), 'delta'),
    );
  });
  if (lines.length > APPROVAL_LINES_SHOWN) parts.push(part(`, and ${lines.length - APPROVAL_LINES_SHOWN} more`));
  return parts;
}

/** What happened, before who did it. */
function mainClause(facts: ChangeFacts): SentencePart[] {
  const d = dataOf(facts);
  const names = facts.names ?? {};
  switch (facts.type) {
    case 'StockAdjusted':
      return adjustment(facts);
    case 'StockMoved':
      return [part('Moved '), ...move(facts)];
    case 'ItemUpdated':
      return [part('Edited '), subject(facts), part(': '), ...fieldDiffs(d.changes ?? {}, names, facts.money)];
    case 'ItemCreated':
      return [
        part('Created '),
        subject(facts),
        part(` in ${names[d.categoryId] ?? 'a deleted category'}: `),
        part(String(d.quantity), 'new'),
        part(' in stock'),
        ...atLocation(facts),
        part(', price '),
        part(sentenceMoney(d.price, facts.money), 'new'),
        part(', threshold '),
        part(String(d.threshold), 'new'),
      ];
    case 'ItemDeleted':
      return [part('Deleted '), subject(facts), ...(d.sku ? [part(` (SKU ${d.sku})`)] : [])];
    case 'CategoryCreated':
      return [part('Created category '), subject(facts)];
    case 'CategoryUpdated':
      return [part('Edited category '), subject(facts), part(': '), ...fieldDiffs(d.changes ?? {}, names, facts.money)];
    case 'CategoryDeleted':
      return [part('Deleted category '), subject(facts)];
    case 'ItemWentLow':
      return [
        subject(facts),
        part(' is low on stock: '),
        part(String(d.quantity), 'new'),
        part(` left, threshold ${d.threshold}`),
      ];
    case 'ItemRecovered':
      return [
        subject(facts),
        part(' is back above its threshold: '),
        part(String(d.quantity), 'new'),
        part(` in stock, threshold ${d.threshold}`),
      ];
    case 'StocktakeStarted': {
      const count = (d.itemIds ?? []).length;
      return [
        part('Started stocktake '),
        subject(facts),
        part(`: ${count} ${count === 1 ? 'item' : 'items'} to count`),
      ];
    }
    case 'StockCounted':
      return [
        part('Counted '),
        part(names[d.itemId] ?? 'an item', 'subject'),
        ...atLocation(facts),
        part(': '),
        part(String(d.counted), 'new'),
        part(` (stocktake ${facts.subject})`),
      ];
    case 'StocktakeLinesApproved':
      return [part('Approved stocktake '), subject(facts), part(': '), ...approvedLines(facts)];
    case 'StocktakeClosed': {
      const n = Number(d.approvedLines ?? 0);
      return [part('Closed stocktake '), subject(facts), part(` (${n} ${n === 1 ? 'line' : 'lines'} approved)`)];
    }
    default:
      return placeClause(facts) ?? transferClause(facts) ?? [part(`${facts.type} `), subject(facts)];
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Transfers between sites (shared/transfers.ts): "Created transfer #12 from Warehouse to Main
 * store: 3 lines, 40 units", "Received 25 units of transfer #12 at Back room, 15 still in transit".
 * The subject is the transfer's name, "Transfer #12".
 */
function transferClause(facts: ChangeFacts): SentencePart[] | null {
  const d = dataOf(facts);
  const names = facts.names ?? {};
  const transfer = part(facts.subject.replace(/^Transfer /, 'transfer '), 'subject');
  const left = (remaining: unknown) =>
    Number(remaining) > 0 ? [part(', '), part(String(remaining), 'new'), part(' still in transit')] : [];
  switch (facts.type) {
    case 'TransferCreated': {
      const lines = (d.lines ?? []) as Array<{ quantity: number }>;
      const units = lines.reduce((sum, l) => sum + Number(l.quantity), 0);
      return [
        part('Created '),
        transfer,
        part(' from '),
        part(placeName(names, d.fromSiteId, 'a site'), 'old'),
        part(' to '),
        part(placeName(names, d.toSiteId, 'a site'), 'new'),
        part(`: ${plural(lines.length, 'line', 'lines')}, `),
        part(plural(units, 'unit', 'units'), 'delta'),
      ];
    }
    case 'TransferShipped':
      return [
        part('Shipped '),
        transfer,
        part(': '),
        part(plural(Number(d.units), 'unit', 'units'), 'delta'),
        part(' in transit'),
      ];
    case 'TransferReceived': {
      const units = ((d.lines ?? []) as Array<{ quantity: number }>).reduce((sum, l) => sum + Number(l.quantity), 0);
      return [
        part('Received '),
        part(plural(units, 'unit', 'units'), 'delta'),
        part(' of '),
        transfer,
        part(' at '),
        part(placeName(names, d.toLocationId, 'a location'), 'field'),
        ...left(d.remaining),
      ];
    }
    case 'TransferLineWrittenOff':
      return [
        part('Wrote off '),
        part(String(d.quantity), 'delta'),
        part(' '),
        part(names[d.itemId] ?? 'an item', 'subject'),
        part(' in transit on '),
        transfer,
        ...left(d.remaining),
      ];
    case 'TransferCancelled':
      return [part('Cancelled '), transfer];
    // Undoing a step says what came back where, not "Reverted …": the step's own sentence
    // would read as if it happened again.
    case 'TransferShipmentUndone':
      return [
        part('Undid the shipment of '),
        transfer,
        part(': '),
        part(plural(Number(d.units), 'unit', 'units'), 'delta'),
        part(' back on the shelves they left'),
      ];
    case 'TransferReceiptUndone': {
      const units = ((d.lines ?? []) as Array<{ quantity: number }>).reduce((sum, l) => sum + Number(l.quantity), 0);
      return [
        part('Undid the receipt of '),
        part(plural(units, 'unit', 'units'), 'delta'),
        part(' of '),
        transfer,
        part(' at '),
        part(placeName(names, d.toLocationId, 'a location'), 'field'),
        part(': back in transit, '),
        part(String(d.remaining), 'new'),
        part(' in all'),
      ];
    }
    case 'TransferWriteOffUndone':
      return [
        part('Undid the write-off of '),
        part(String(d.quantity), 'delta'),
        part(' '),
        part(names[d.itemId] ?? 'an item', 'subject'),
        part(' on '),
        transfer,
        part(': back in transit, '),
        part(String(d.remaining), 'new'),
        part(' in all'),
      ];
    default:
      return null;
  }
}

/** A place named by id in the event ("Back room"), as it was then; null: the top level of its site. */
const placeName = (names: Record<string, string>, id: unknown, fallback: string) =>
  typeof id === 'string' ? (names[id] ?? fallback) : 'the top level';

/** Sites and locations (shared/sites.ts): "Created location Shelf 2 (S2) in Back room". */
function placeClause(facts: ChangeFacts): SentencePart[] | null {
  const d = dataOf(facts);
  const names = facts.names ?? {};
  switch (facts.type) {
    case 'SiteCreated':
      return [part('Created site '), subject(facts), part(` (${d.code}, ${d.timeZone})`)];
    case 'SiteUpdated':
      return [part('Edited site '), subject(facts), part(': '), ...fieldDiffs(d.changes ?? {}, names, facts.money)];
    case 'SiteDefaultLocationSet':
      return [
        part('Made '),
        part(placeName(names, d.locationId, 'a location'), 'new'),
        part(' the default location of '),
        subject(facts),
      ];
    case 'SiteArchived':
      return [part('Archived site '), subject(facts)];
    case 'SiteRestored':
      return [part('Restored site '), subject(facts)];
    case 'LocationCreated':
      return [
        part('Created location '),
        subject(facts),
        part(` (${d.code}) `),
        ...(d.parentId
          ? [part('in '), part(placeName(names, d.parentId, 'a location'))]
          : [part('at '), part(placeName(names, d.siteId, 'a site'))]),
      ];
    case 'LocationUpdated':
      return [part('Edited location '), subject(facts), part(': '), ...fieldDiffs(d.changes ?? {}, names, facts.money)];
    case 'LocationMoved':
      return [
        part('Moved location '),
        subject(facts),
        part(' from '),
        part(placeName(names, d.fromParentId, 'a location'), 'old'),
        part(' to '),
        part(placeName(names, d.toParentId, 'a location'), 'new'),
      ];
    case 'LocationArchived':
      return [part('Archived location '), subject(facts)];
    case 'LocationRestored':
      return [part('Restored location '), subject(facts)];
    default:
      return null;
  }
}

/** The change a revert takes back, as a noun: "-5 (sale) Milk", "edit of Milk", "revert of …". */
function revertedNoun(original: ChangeFacts | null, fallbackSubject: string): SentencePart[] {
  if (!original) return [part('an earlier change to '), part(fallbackSubject, 'subject')];
  if (original.revert) return [part('revert of '), ...revertedNoun(original.revert.original, original.subject)];
  const s = subject(original);
  switch (original.type) {
    case 'StockAdjusted':
      return adjustment(original);
    case 'StockMoved':
      return [part('move of '), ...move(original)];
    case 'ItemUpdated':
      return [part('edit of '), s];
    case 'ItemCreated':
      return [part('creation of '), s];
    case 'ItemDeleted':
      return [part('deletion of '), s];
    case 'CategoryCreated':
      return [part('creation of category '), s];
    case 'CategoryUpdated':
      return [part('edit of category '), s];
    case 'CategoryDeleted':
      return [part('deletion of category '), s];
    default:
      return [part('change to '), s];
  }
}

/** "Reverted -5 (sale) Milk"; a revert that edits says what it put back: "Reverted edit of Milk: Price $4.90 → $4.50". */
function revertClause(facts: ChangeFacts, revert: NonNullable<ChangeFacts['revert']>): SentencePart[] {
  const parts = [part('Reverted '), ...revertedNoun(revert.original, facts.subject)];
  const changes = dataOf(facts).changes;
  if ((facts.type === 'ItemUpdated' || facts.type === 'CategoryUpdated') && changes) {
    parts.push(part(': '), ...fieldDiffs(changes, facts.names ?? {}, facts.money));
  }
  return parts;
}

/** A transfer step's undoing: its own sentence says what it undid (transferClause). */
const UNDID_STEP = new Set(['TransferShipmentUndone', 'TransferReceiptUndone', 'TransferWriteOffUndone']);

/**
 * The sentence of one change: what happened, then whose counts a stocktake posted, then
 * ", by {who}" (null: nobody to name, as for low-stock facts), then the adjustment's note, the
 * revert's reason, the import's file.
 */
export function describeChange(facts: ChangeFacts, who: string | null): SentencePart[] {
  const parts = facts.revert && !UNDID_STEP.has(facts.type) ? revertClause(facts, facts.revert) : mainClause(facts);
  // One part for every counter, so a guest's copy says "counted by Staff member" once.
  if (facts.countedBy && facts.countedBy.length > 0)
    parts.push(part(', counted by '), part(facts.countedBy.join(', '), 'who'));
  if (who !== null) parts.push(part(', by '), part(who, 'who'));
  const note =
    facts.type === 'StockAdjusted' || facts.type === 'StockMoved' || facts.type === 'TransferCreated'
      ? dataOf(facts).note
      : null;
  if (typeof note === 'string' && note.trim() !== '') parts.push(part(', note: '), part(note.trim(), 'note'));
  const reason =
    facts.type === 'TransferLineWrittenOff' || facts.type === 'TransferCancelled' ? dataOf(facts).reason : null;
  if (typeof reason === 'string' && reason.trim() !== '') parts.push(part(', reason: '), part(reason.trim(), 'note'));
  const why = facts.revert?.reason;
  if (why && why.trim() !== '') parts.push(part(', why: '), part(why.trim(), 'note'));
  if (facts.importFile) parts.push(part(` (${importedFrom(facts.importFile)})`));
  return parts;
}

export const sentenceText = (parts: readonly SentencePart[]) => parts.map((p) => p.text).join('');

/** The same sentence naming nobody: what a guest is shown. */
export const withoutAuthor = (parts: readonly SentencePart[], instead: string): SentencePart[] =>
  parts.map((p) => (p.role === 'who' ? { ...p, text: instead } : p));

export function isSentence(value: unknown): value is SentencePart[] {
  return (
    Array.isArray(value) &&
    value.every((p) => p !== null && typeof p === 'object' && typeof (p as SentencePart).text === 'string')
  );
}
