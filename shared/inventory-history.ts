// Undo, revert, as-of and compare: the shapes the API and the client share.

/** Body of POST /api/events/{eventId}/revert. */
export interface RevertBody {
  /** Why (shown in history and the activity log). */
  reason?: string;
  /**
   * For an edit: the fields to restore. Absent: every field that has not changed since;
   * a field named here is restored even if it changed since ("restore anyway").
   */
  fields?: string[];
}

/** One field of an edit, as a revert would restore it. */
export interface RevertField {
  field: string;
  /** The value the edit replaced: what a revert restores. */
  restore: unknown;
  /** The value the edit set. */
  edited: unknown;
  current: unknown;
  /** The field was edited again after this change: by whom and when. */
  changedSince: { by: string; at: string } | null;
}

export type RevertKind =
  | 'adjust'
  | 'move'
  | 'edit'
  | 'create'
  | 'delete'
  | 'category-create'
  | 'category-edit'
  | 'category-delete'
  /** A transfer's step (server/transfers/undo-decide.ts): the whole step, on every line it touched. */
  | 'transfer-shipment'
  | 'transfer-receipt'
  | 'transfer-write-off';

/** GET /api/events/{eventId}/revert: what a revert of this change would do. */
export interface RevertPlan {
  eventId: string;
  kind: RevertKind;
  resourceType: 'inventory' | 'category' | 'transfer';
  resourceId: string;
  resourceName: string;
  /** What the change was, in words ("Adjusted stock of Widget by +5 (restock)"). */
  summary: string;
  actor: { uid: string | null; name: string };
  timestamp: string;
  fields: RevertField[];
  /** A stock change: the delta a revert applies (the original's, negated). */
  delta: number | null;
  /** Already reverted: who did it and when (a change is reverted at most once). */
  revertedBy: { name: string; at: string } | null;
  /** Why a revert would be refused right now, or null. */
  blocked: string | null;
}

/** The answer of a revert: the compensating events appended. */
export interface RevertResult {
  reverted: string[];
  revertingEventIds: string[];
  resourceType: 'inventory' | 'category' | 'transfer';
  resourceId: string;
  summary: string;
}

export interface FieldDiff {
  field: string;
  from: unknown;
  to: unknown;
}

/** One item in GET /api/changes. */
export interface ItemChange {
  itemId: string;
  name: string;
  sku: string;
  status: 'created' | 'deleted' | 'changed';
  categoryId: string;
  category: string;
  /** Fields whose value differs between the two moments (quantity is in `stockMovement`). */
  diffs: FieldDiff[];
  /** Quantity at `to` minus quantity at `from` (an item absent at one end counts 0 there). */
  stockMovement: number;
  valueMovement: number;
}

export interface ChangesGroup {
  categoryId: string;
  category: string;
  items: ItemChange[];
  created: number;
  deleted: number;
  changed: number;
  stockMovement: number;
}

export interface ChangesReport {
  from: string;
  to: string;
  groups: ChangesGroup[];
  totals: { created: number; deleted: number; changed: number; stockMovement: number; valueMovement: number };
}

/** Fields of an item compared by GET /api/changes, in display order. */
export const COMPARED_FIELDS = [
  'name',
  'sku',
  'description',
  'categoryId',
  'price',
  'threshold',
  'imageUrl',
  'expiryDate',
  'barcode',
] as const;

/** How far back the time control's scrubber reaches, in days. */
export const AS_OF_SCRUB_DAYS = 90;

/** Daily event counts for the scrubber: GET /api/history/activity. */
export interface EventCountsByDay {
  /** The store's first record: the earliest moment an as-of read shows (null: no history yet). */
  firstRecordAt: string | null;
  days: Array<{ day: string; events: number }>;
}
