// Undo of a transfer's step (a shipment, a receipt, a write-off): the revert route
// (server/history) hands it here for any change of a transfer's stream, and for a step's
// event on an item's stream (an item history's Revert undoes the whole step). Found from the
// change: the step's events on the transfer's stream and on its items' (written in one
// transaction). Then, in one transaction and with the locks of the transfer's own commands
// (transfer-locks.ts, same order): the caller's right to revert (their own step with Update
// stock levels, or Revert changes) and to update stock at the sites the undo changes, a second
// undo refused naming who undid it first, the pure decision (undo-decide.ts), and one append of
// the transfer's events and the items', each citing the event it undoes (`reverts`).
import { sql } from 'kysely';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import { itemStream } from '../../shared/inventory-events.js';
import type { RevertBody, RevertKind, RevertPlan, RevertResult } from '../../shared/inventory-history.js';
import { hasPermission } from '../../shared/permissions.js';
import { transferStream } from '../../shared/transfers.js';
import { assertMayAtSites } from '../auth/site-access.js';
import type { Principal } from '../auth/principal.js';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from '../errors.js';
import { isUniqueViolation, toStoredEvent, type EventStore, type StreamBatch } from '../eventstore/event-store.js';
import type { EventMetadata, StoredEvent, Transaction } from '../eventstore/types.js';
import type { OwnedReverts } from '../history/revert-service.js';
import type { TransferFacts, TransferState } from './decide.js';
import { loadItems, lockLocations, lockSites, lockTransfer } from './transfer-locks.js';
import { stepOf, undoTransferStep, type StepToUndo, type UndoableStep, type UndoDecision } from './undo-decide.js';

/** Each step's event on the transfer's stream and on each item's. */
const STEP_EVENTS: Record<UndoableStep, { transfer: string; item: string }> = {
  shipment: { transfer: 'TransferShipped', item: 'StockShipped' },
  receipt: { transfer: 'TransferReceived', item: 'StockReceived' },
  'write-off': { transfer: 'TransferLineWrittenOff', item: 'TransitWrittenOff' },
};
const ITEM_STEPS = new Set(Object.values(STEP_EVENTS).map((s) => s.item));
const KINDS: Record<UndoableStep, RevertKind> = {
  shipment: 'transfer-shipment',
  receipt: 'transfer-receipt',
  'write-off': 'transfer-write-off',
};
const UNDONE_TYPES = new Set(['TransferShipmentUndone', 'TransferReceiptUndone', 'TransferWriteOffUndone']);
// Crossings follow from the step beside them: never what an undo names as undone.
const DERIVED = new Set(['ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered']);

const eventColumns = sql`position, tx_id::text as tx_id, stream_id, stream_type, stream_version,
  event_id::text as event_id, type, data, metadata, created_at`;

const key = (id: string) => id.toLowerCase();

/** A step found from one of its events. */
interface Step {
  kind: UndoableStep;
  transferId: string;
  /** Its events on the transfer's stream (a write-off: one per line). */
  events: StoredEvent[];
  /** Its event on each item's stream. */
  items: StoredEvent[];
}

/** The refusal of a change of a transfer that is not a step to undo. */
function notUndoable(type: string): UnprocessableError {
  if (UNDONE_TYPES.has(type))
    return new UnprocessableError(
      "An undo of a transfer's step is not undone in turn: ship, receive or write off the transfer again",
    );
  if (type === 'TransferCreated')
    return new UnprocessableError("A transfer's creation is not undone: cancel the draft instead");
  if (type === 'TransferCancelled')
    return new UnprocessableError('A cancelled transfer stays cancelled: draft another one');
  return new UnprocessableError('Only a shipment, a receipt or a write-off of a transfer can be undone');
}

const STEP_NOUNS: Record<UndoableStep, string> = { shipment: 'shipment', receipt: 'receipt', 'write-off': 'write-off' };

/** The 409 for a step undone before: who and when also as data (`revertedBy`), as the revert dialog reads it. */
function alreadyUndone(kind: UndoableStep, number: number, by: { name: string; at: string }): ConflictError {
  return new ConflictError(
    `The ${STEP_NOUNS[kind]} of transfer #${number} was already undone by ${by.name} on ${by.at}`,
    {
      revertedBy: by,
    },
  );
}

export class TransferUndo implements OwnedReverts {
  constructor(private readonly store: EventStore) {}

  owns(original: StoredEvent): boolean {
    return original.streamType === 'transfer' || (original.streamType === 'item' && ITEM_STEPS.has(original.type));
  }

  /** The step `original` belongs to, on the transfer as it is. */
  private async stepOf(db: Transaction, original: StoredEvent, transfer: TransferState): Promise<Step> {
    const streamId = transferStream(transfer.id).id;
    const onTransfer =
      original.streamType === 'transfer'
        ? [original]
        : (
            await sql<any>`select ${eventColumns} from events where stream_id = ${streamId}
              and tx_id::text = ${original.txId} order by position`.execute(db)
          ).rows.map(toStoredEvent);
    const first = onTransfer[0];
    const kind = first ? stepOf(first.type) : null;
    if (!kind) throw notUndoable(first?.type ?? original.type);
    // A write-off of several lines is one step: its events share the transaction.
    const events =
      original.streamType === 'transfer' && kind === 'write-off'
        ? (
            await sql<any>`select ${eventColumns} from events where stream_id = ${streamId}
              and tx_id::text = ${original.txId} and type = ${first!.type} order by position`.execute(db)
          ).rows.map(toStoredEvent)
        : onTransfer.filter((e) => e.type === first!.type);
    const streams = transfer.lines.map((l) => itemStream(l.itemId).id);
    const items = (
      await sql<any>`select ${eventColumns} from events where stream_id in (${sql.join(streams)})
        and tx_id::text = ${first!.txId} and type = ${STEP_EVENTS[kind].item} order by position`.execute(db)
    ).rows
      .map(toStoredEvent)
      .filter((e) => key(String((e.data as { transferId?: string }).transferId)) === key(transfer.id));
    return { kind, transferId: transfer.id, events, items };
  }

  /** The transfer the change is of, and its step; `lock`: the transfer's row for update (first, as its commands). */
  private async load(
    db: Transaction,
    original: StoredEvent,
    lock: boolean,
  ): Promise<{ transfer: TransferState; step: Step }> {
    const transferId =
      original.streamType === 'transfer'
        ? original.streamId.slice('transfer-'.length)
        : String((original.data as { transferId?: string }).transferId ?? '');
    const transfer = await lockTransfer(db, transferId, lock);
    if (!transfer) throw new NotFoundError('Transfer not found');
    return { transfer, step: await this.stepOf(db, original, transfer) };
  }

  private async factsFor(db: Transaction, transfer: TransferState, step: Step, lock: boolean): Promise<TransferFacts> {
    const items = await loadItems(
      db,
      step.items.map((e) => e.streamId.slice('item-'.length)),
      lock,
    );
    const sites = await lockSites(db, [transfer.fromSiteId, transfer.toSiteId]);
    const places = step.items.flatMap((e) => {
      const d = e.data as { fromLocationId?: string; toLocationId?: string };
      return [d.fromLocationId, d.toLocationId].filter((id): id is string => !!id);
    });
    return { items, sites, locations: await lockLocations(db, places) };
  }

  /**
   * 403 unless the caller may revert this step (their own with Update stock levels, or Revert
   * changes) and update stock at the sites its undo changes: a shipment's source (the units go
   * back on its shelves), a receipt's destination (they leave its shelves), and for a write-off
   * both, as for the write-off itself (the units are the transfer's between the two again).
   */
  private authorize(who: Principal, step: Step, transfer: TransferState, facts: TransferFacts): void {
    const own = step.events[0]!.metadata.actor.uid === who.uid;
    if (!who.permissions.includes('changes:revert') && !(own && hasPermission(who.permissions, 'stock:update')))
      throw new ForbiddenError("You don't have permission to revert changes");
    const sites =
      step.kind === 'shipment'
        ? [transfer.fromSiteId]
        : step.kind === 'receipt'
          ? [transfer.toSiteId]
          : [transfer.fromSiteId, transfer.toSiteId];
    assertMayAtSites(who, 'stock:update', sites, (id) => facts.sites.get(key(id))?.name ?? id);
  }

  private async revertedBy(db: Transaction, ids: string[]): Promise<{ name: string; at: string } | null> {
    const rows = await sql<{ metadata: EventMetadata; created_at: Date }>`select e.metadata, e.created_at from reverts r
      join events e on e.event_id = r.reverting_event_id
      where r.reverted_event_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))}) limit 1`.execute(db);
    const row = rows.rows[0];
    return row ? { name: row.metadata.actor.name, at: new Date(row.created_at).toISOString() } : null;
  }

  /** The step as its sentences say it (the log's, without who): "Shipped transfer #3: 14 units in transit". */
  private async summary(db: Transaction, transfer: TransferState, step: Step): Promise<string> {
    const ids = step.events.flatMap((e) => {
      const d = e.data as { toLocationId?: string; itemId?: string };
      return [d.toLocationId, d.itemId].filter((id): id is string => !!id);
    });
    const rows = ids.length
      ? (
          await sql<{
            id: string;
            name: string;
          }>`select id::text as id, name from items where id::text in (${sql.join(ids)})
            union all select id::text, name from locations where id::text in (${sql.join(ids)})`.execute(db)
        ).rows
      : [];
    const names = Object.fromEntries(rows.map((r) => [r.id, r.name]));
    return step.events
      .map((e) =>
        sentenceText(
          describeChange({ type: e.type, data: e.data, subject: `Transfer #${transfer.number}`, names }, null),
        ),
      )
      .join('; ');
  }

  private toUndo(step: Step): StepToUndo {
    return {
      transfer: step.events,
      items: new Map(step.items.map((e) => [key(e.streamId.slice('item-'.length)), e])),
    };
  }

  async plan(original: StoredEvent, who: Principal): Promise<RevertPlan> {
    return this.store.db.transaction().execute(async (trx) => {
      const { transfer, step } = await this.load(trx, original, false);
      const facts = await this.factsFor(trx, transfer, step, false);
      this.authorize(who, step, transfer, facts);
      const revertedBy = await this.revertedBy(
        trx,
        [...step.events, ...step.items].map((e) => e.eventId),
      );
      let blocked: string | null = revertedBy ? `Already undone by ${revertedBy.name} on ${revertedBy.at}` : null;
      if (!blocked) {
        try {
          undoTransferStep(transfer, this.toUndo(step), facts);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          blocked = error.message;
        }
      }
      const first = step.events[0]!;
      return {
        eventId: original.eventId,
        kind: KINDS[step.kind],
        resourceType: 'transfer',
        resourceId: transfer.id,
        resourceName: `Transfer #${transfer.number}`,
        summary: await this.summary(trx, transfer, step),
        actor: first.metadata.actor,
        timestamp: first.createdAt.toISOString(),
        fields: [],
        delta: null,
        revertedBy,
        blocked,
      };
    });
  }

  async revert(original: StoredEvent, body: RevertBody, who: Principal, meta: EventMetadata): Promise<RevertResult> {
    if (body.fields?.length) throw new ValidationError("fields: a transfer's step has no fields to pick");
    const reason = body.reason?.trim() || null;
    let wrote = false;
    let undoing: { kind: UndoableStep; number: number } | null = null;
    const result = await this.store
      .transact(async (trx) => {
        wrote = false;
        const { transfer, step } = await this.load(trx, original, true);
        undoing = { kind: step.kind, number: transfer.number };
        const answer = async (appended: StoredEvent[]): Promise<RevertResult> => ({
          reverted: [...step.events, ...step.items].map((e) => e.eventId),
          revertingEventIds: appended.filter((e) => !DERIVED.has(e.type)).map((e) => e.eventId),
          resourceType: 'transfer',
          resourceId: transfer.id,
          summary: await this.summary(trx, transfer, step),
        });
        const prior = await this.store.priorResult(trx, meta.idempotencyKey);
        if (prior) return answer(prior.events);
        const facts = await this.factsFor(trx, transfer, step, true);
        this.authorize(who, step, transfer, facts);
        const by = await this.revertedBy(
          trx,
          [...step.events, ...step.items].map((e) => e.eventId),
        );
        if (by) throw alreadyUndone(step.kind, transfer.number, by);
        const decision = undoTransferStep(transfer, this.toUndo(step), facts);
        const results = await this.store.appendBatch(trx, this.batches(transfer, decision, facts, meta, reason));
        wrote = true;
        return answer(results.flat().flatMap((r) => r.events));
      })
      .catch(async (error: unknown) => {
        if (!isUniqueViolation(error, 'reverts_pkey') || !undoing) throw error;
        // Another undo of it committed first: say whose, now that it can be read.
        const { kind, number } = undoing;
        const by = await this.store.db.transaction().execute(async (trx) => {
          const { step } = await this.load(trx, original, false);
          return this.revertedBy(
            trx,
            step.events.map((e) => e.eventId),
          );
        });
        throw by ? alreadyUndone(kind, number, by) : new ConflictError('This step was already undone');
      });
    if (wrote) this.store.committed();
    return result;
  }

  /** The transfer's batch (a command per event undone), then each item's at the version it was loaded at. */
  private batches(
    transfer: TransferState,
    decision: UndoDecision,
    facts: TransferFacts,
    meta: EventMetadata,
    reason: string | null,
  ): StreamBatch[] {
    const metadata = (reverts: string) => ({ ...meta, reverts, revertReason: reason }) as EventMetadata;
    return [
      {
        stream: transferStream(transfer.id),
        expectedVersion: transfer.version,
        commands: decision.transfer.map((c) => ({ events: c.events, metadata: metadata(c.reverts) })),
      },
      ...[...decision.items.entries()].map(([itemId, c]): StreamBatch => ({
        stream: itemStream(facts.items.get(itemId)!.id),
        expectedVersion: facts.items.get(itemId)!.version,
        commands: [{ events: c.events, metadata: metadata(c.reverts) }],
      })),
    ];
  }
}
