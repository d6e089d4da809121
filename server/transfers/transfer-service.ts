// Transfer commands, each in one transaction: load (the transfer's row, its items' rows and
// the places it names, locked in one order: transfer-locks.ts), check the caller may update
// stock at the site the step is done at (auth/site-access.ts: drafting, shipping and
// cancelling at the source, receiving at the destination, writing off at either end),
// decide (decide.ts, pure), and append the
// transfer's events and every item's in one statement, each stream at the version loaded.
// A retry with the request's Idempotency-Key after the first try committed writes nothing:
// it answers the transfer as it is. The answer is the transfer as the command left it.
import { randomUUID } from 'node:crypto';
import { itemStream } from '../../shared/inventory-events.js';
import { transferStream, type CreateTransferBody, type Transfer } from '../../shared/transfers.js';
import { assertMayAtSites, maySeeSite } from '../auth/site-access.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import type { EventStore, StreamBatch } from '../eventstore/event-store.js';
import { isUniqueViolation } from '../eventstore/event-store.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import {
  cancelTransfer,
  createTransfer,
  receiveTransfer,
  shipTransfer,
  writeOffTransfer,
  type ReceiveTransfer,
  type TransferDecision,
  type TransferFacts,
  type TransferState,
  type WriteOffTransfer,
} from './decide.js';
import { loadItems, lockLocations, lockSites, lockTransfer, nextTransferNumber } from './transfer-locks.js';
import type { TransferQueries } from './transfer-queries.js';

/** Two creations that took the same number: the later one tries again with the next. */
const NUMBER_TRIES = 5;

const key = (id: string) => id.toLowerCase();

/** The places and items a step on this transfer reads: `itemIds` locked, `locationIds` besides its lines'. */
interface StepNeeds {
  itemIds: string[];
  locationIds: string[];
}

/** Where a step is done (roles per site): at the source, at the destination, or at either end. */
type StepSite = 'from' | 'to' | 'either';

export class TransferService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: TransferQueries,
  ) {}

  async create(body: CreateTransferBody, principal: Principal, meta: EventMetadata): Promise<Transfer> {
    for (let attempt = 1; ; attempt++) {
      try {
        const id = await this.createOnce(body, principal, meta);
        return await this.queries.get(id, 'all');
      } catch (error) {
        if (!isUniqueViolation(error, 'transfers_number_unique') || attempt >= NUMBER_TRIES) throw error;
      }
    }
  }

  private async createOnce(body: CreateTransferBody, principal: Principal, meta: EventMetadata): Promise<string> {
    const transferId = randomUUID();
    let wrote = false;
    const id = await this.store.transact(async (trx) => {
      const prior = await this.store.priorResult(trx, meta.idempotencyKey);
      if (prior) return prior.streamId.slice('transfer-'.length);
      const sites = await lockSites(trx, [body.fromSiteId, body.toSiteId]);
      // Drafted at the source: the destination need not be theirs (they send it there).
      this.mayAt(principal, sites, [body.fromSiteId]);
      const facts: TransferFacts = {
        sites,
        locations: await lockLocations(
          trx,
          body.lines.map((l) => l.fromLocationId),
        ),
        items: await loadItems(
          trx,
          body.lines.map((l) => l.itemId),
          false,
        ),
      };
      const events = createTransfer({ ...body, transferId, number: await nextTransferNumber(trx) }, facts);
      await this.store.appendBatch(trx, [
        { stream: transferStream(transferId), expectedVersion: 0, commands: [{ events, metadata: meta }] },
      ]);
      wrote = true;
      return transferId;
    });
    if (wrote) this.store.committed();
    return id;
  }

  ship(id: string, principal: Principal, meta: EventMetadata): Promise<Transfer> {
    return this.step(
      id,
      principal,
      meta,
      'from',
      (t) => ({ itemIds: t.lines.map((l) => l.itemId), locationIds: [] }),
      (t, facts) => shipTransfer(t, facts),
    );
  }

  receive(id: string, command: ReceiveTransfer, principal: Principal, meta: EventMetadata): Promise<Transfer> {
    return this.step(
      id,
      principal,
      meta,
      'to',
      () => ({ itemIds: command.lines.map((l) => l.itemId), locationIds: [command.toLocationId] }),
      (t, facts) => receiveTransfer(t, command, facts),
    );
  }

  writeOff(id: string, command: WriteOffTransfer, principal: Principal, meta: EventMetadata): Promise<Transfer> {
    return this.step(
      id,
      principal,
      meta,
      'either',
      () => ({ itemIds: command.lines.map((l) => l.itemId), locationIds: [] }),
      (t, facts) => writeOffTransfer(t, command, facts),
    );
  }

  cancel(id: string, reason: string | null, principal: Principal, meta: EventMetadata): Promise<Transfer> {
    return this.step(
      id,
      principal,
      meta,
      'from',
      () => ({ itemIds: [], locationIds: [] }),
      (t) => ({ transfer: cancelTransfer(t, reason), items: new Map() }),
    );
  }

  /** One step on an existing transfer, its items' events appended with its own. */
  private async step(
    id: string,
    principal: Principal,
    meta: EventMetadata,
    at: StepSite,
    needs: (transfer: TransferState) => StepNeeds,
    decide: (transfer: TransferState | null, facts: TransferFacts) => TransferDecision,
  ): Promise<Transfer> {
    let wrote = false;
    await this.store.transact(async (trx) => {
      wrote = false;
      const transfer = await lockTransfer(trx, id);
      if (await this.store.priorResult(trx, meta.idempotencyKey)) return;
      const facts = transfer ? await this.factsFor(trx, transfer, needs(transfer)) : emptyFacts();
      if (transfer) this.mayStepAt(principal, facts.sites, transfer, at);
      const decision = decide(transfer, facts);
      await this.store.appendBatch(trx, this.batches(transfer!, decision, facts, meta));
      wrote = true;
    });
    if (wrote) this.store.committed();
    return this.queries.get(id, 'all');
  }

  private async factsFor(trx: Transaction, transfer: TransferState, needs: StepNeeds): Promise<TransferFacts> {
    const items = await loadItems(trx, needs.itemIds, true);
    const sites = await lockSites(trx, [transfer.fromSiteId, transfer.toSiteId]);
    const locations = await lockLocations(trx, [
      ...transfer.lines.filter((l) => items.has(key(l.itemId))).map((l) => l.fromLocationId),
      ...needs.locationIds,
    ]);
    return { sites, locations, items };
  }

  /** The transfer's batch, then each item's at the version it was loaded at. */
  private batches(
    transfer: TransferState,
    decision: TransferDecision,
    facts: TransferFacts,
    metadata: EventMetadata,
  ): StreamBatch[] {
    const items = [...decision.items.entries()].map(([itemId, events]): StreamBatch => ({
      stream: itemStream(facts.items.get(itemId)!.id),
      expectedVersion: facts.items.get(itemId)!.version,
      commands: [{ events, metadata }],
    }));
    return [
      {
        stream: transferStream(transfer.id),
        expectedVersion: transfer.version,
        commands: [{ events: decision.transfer, metadata }],
      },
      ...items,
    ];
  }

  /**
   * A step on a transfer: one the caller sees neither end of is none they know of (404, as
   * reading it); else 403 unless they may update stock where the step is done.
   */
  private mayStepAt(principal: Principal, sites: TransferFacts['sites'], transfer: TransferState, at: StepSite): void {
    const { fromSiteId: from, toSiteId: to } = transfer;
    if (!maySeeSite(principal, from) && !maySeeSite(principal, to)) throw new NotFoundError('Transfer not found');
    if (at !== 'either') return this.mayAt(principal, sites, [at === 'from' ? from : to]);
    try {
      this.mayAt(principal, sites, [to]);
    } catch {
      this.mayAt(principal, sites, [from]);
    }
  }

  /** 403 unless the caller may update stock at the sites (those that exist: an unknown one is refused by the decision). */
  private mayAt(principal: Principal, sites: TransferFacts['sites'], siteIds: string[]): void {
    const known = siteIds.filter((id) => sites.has(key(id)));
    assertMayAtSites(principal, 'stock:update', known, (siteId) => sites.get(key(siteId))?.name ?? siteId);
  }
}

const emptyFacts = (): TransferFacts => ({ sites: new Map(), locations: new Map(), items: new Map() });
