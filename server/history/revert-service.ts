// Reverting a change: lock the item or category the way its own commands do, fold its
// stream, decide the compensating events (revert-decide.ts) and append them in one
// transaction, each citing the event it reverts (`reverts` in metadata). The history
// projection's insert into `reverts` in that same transaction makes a second revert of
// the same event fail, whichever instance runs it.
import { sql } from 'kysely';
import type { NewEvent } from '../eventstore/types.js';
import type { CategoryEvent, InventoryEvent } from '../../shared/inventory-events.js';
import { evolveCategory, type FoldedCategory } from '../../shared/inventory-fold.js';
import type { RevertBody, RevertPlan, RevertResult } from '../../shared/inventory-history.js';
import type { Permission } from '../../shared/permissions.js';
import type { Principal } from '../auth/principal.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnprocessableError } from '../errors.js';
import { isUniqueViolation, toStoredEvent, type EventStore } from '../eventstore/event-store.js';
import type { EventMetadata, StoredEvent, Transaction } from '../eventstore/types.js';
import { evolveItem, type ItemState } from '../inventory/item-state.js';
import { describeChange } from '../inventory/change-summary.js';
import { withSitesOf } from '../inventory/decide.js';
import { loadPlaces } from '../inventory/places-sql.js';
import type { Places } from '../inventory/stock-places.js';
import { createLocationSites, sitesOfEvents } from '../auth/event-sites.js';
import type { SiteGrant } from '../auth/principal.js';
import { mayAtSite } from '../auth/site-access.js';
import { fieldsOfEdit, revertCategoryEvent, revertItemEvent, revertKind, type CategoryFold } from './revert-decide.js';

/** Who asks: their uid and permissions. */
export interface Reverter {
  uid: string;
  permissions: readonly Permission[];
  /** Where their role holds (roles per site): absent or null at every site. */
  siteGrants?: readonly SiteGrant[] | null;
}

/** What a user needs to undo a change of their own of each kind (without Revert changes). */
const ownUndoNeeds: Record<string, Permission> = {
  StockAdjusted: 'stock:update',
  StockMoved: 'stock:update',
  ItemUpdated: 'inventory:manage',
  ItemCreated: 'inventory:create',
  ItemDeleted: 'records:delete',
  CategoryCreated: 'inventory:create',
  CategoryUpdated: 'inventory:manage',
  CategoryDeleted: 'records:delete',
};

// Crossings follow from the change beside them (also per site: SiteWentLow, SiteRecovered).
const DERIVED = new Set(['ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const eventColumns = sql`position, tx_id::text as tx_id, stream_id, stream_type, stream_version,
  event_id::text as event_id, type, data, metadata, created_at`;

interface Loaded {
  original: StoredEvent;
  /** The original and the other events its command wrote on the stream (an edit with a count). */
  command: StoredEvent[];
  stream: StoredEvent[];
}

function foldItem(events: StoredEvent[]): ItemState | null {
  let state: ItemState | null = null;
  for (const e of events) {
    state = evolveItem(state, { type: e.type, data: e.data } as InventoryEvent, {
      version: e.streamVersion,
      at: e.createdAt,
      streamId: e.streamId,
    });
  }
  return state;
}

function foldCategory(events: StoredEvent[], itemCount: number): CategoryFold {
  let state: FoldedCategory | null = null;
  for (const e of events)
    state = evolveCategory(state, { type: e.type, data: e.data } as CategoryEvent, {
      version: e.streamVersion,
      at: e.createdAt,
    });
  const { id, name, description, version, deleted } = state!;
  return { id, name, description, version, itemCount, deleted };
}

/**
 * The 409 for a change reverted before: who and when also as data (`revertedBy`), so a
 * screen can write the time in the reader's own format instead of the message's UTC ISO.
 */
function alreadyReverted(by: { name: string; at: string }): ConflictError {
  return new ConflictError(`This change was already reverted by ${by.name} on ${by.at}`, { revertedBy: by });
}

/**
 * The refusal for a change that is there but is not an item's or a category's: the activity
 * log lists site, location and stocktake changes too, and "not found" would be untrue.
 */
function notRevertable(streamType: string): UnprocessableError {
  return new UnprocessableError(
    streamType === 'site' || streamType === 'location'
      ? "Changes to sites and locations can't be reverted: change the place back on Sites and locations"
      : "Only changes to items and categories can be reverted: this one can't be",
  );
}

/**
 * Reverts another feature decides for the changes it owns (a transfer's steps:
 * server/transfers/transfer-undo.ts), asked before this service's own, with the change found.
 */
export interface OwnedReverts {
  owns(original: StoredEvent): boolean;
  plan(original: StoredEvent, who: Principal): Promise<RevertPlan>;
  revert(original: StoredEvent, body: RevertBody, who: Principal, meta: EventMetadata): Promise<RevertResult>;
}

export class RevertService {
  constructor(
    private readonly store: EventStore,
    private readonly others: readonly OwnedReverts[] = [],
  ) {}

  /** The change and who reverts it, when another feature owns it. */
  private async owned(eventId: string): Promise<{ by: OwnedReverts; original: StoredEvent } | null> {
    if (this.others.length === 0 || !UUID.test(eventId)) return null;
    const found = await sql<any>`select ${eventColumns} from events where event_id = ${eventId}`.execute(this.store.db);
    const original = found.rows[0] ? toStoredEvent(found.rows[0]) : null;
    const by = original ? this.others.find((o) => o.owns(original)) : undefined;
    return by ? { by, original: original! } : null;
  }

  /** The event and its command's other events, with the whole stream, read in `db`. */
  private async load(db: Transaction, eventId: string): Promise<Loaded> {
    if (!UUID.test(eventId)) throw new NotFoundError('Change not found');
    const found = await sql<any>`select ${eventColumns} from events where event_id = ${eventId}`.execute(db);
    if (!found.rows[0]) throw new NotFoundError('Change not found');
    const original = toStoredEvent(found.rows[0]);
    if (original.streamType !== 'item' && original.streamType !== 'category') throw notRevertable(original.streamType);
    revertKind(original.type); // refuses derived events with a reason
    const rows = await sql<any>`select ${eventColumns} from events where stream_id = ${original.streamId}
      order by stream_version`.execute(db);
    const stream = rows.rows.map(toStoredEvent);
    // One command's events share a transaction and a correlation id (an edit that also counted stock).
    const command = stream.filter(
      (e) =>
        e.txId === original.txId &&
        e.metadata.correlationId === original.metadata.correlationId &&
        !DERIVED.has(e.type),
    );
    return { original, command, stream };
  }

  private authorize(who: Reverter, original: StoredEvent): void {
    if (who.permissions.includes('changes:revert')) return;
    const need = ownUndoNeeds[original.type];
    if (original.metadata.actor.uid === who.uid && need && who.permissions.includes(need)) return;
    throw new ForbiddenError("You don't have permission to revert changes");
  }

  /** Roles per site: someone limited to some sites reverts only changes of those sites (and of none). */
  private async authorizeAtSites(db: Transaction, who: Reverter, original: StoredEvent): Promise<void> {
    if (!who.siteGrants) return;
    const [sites] = await sitesOfEvents([original], createLocationSites(db));
    if (!sites) return;
    const own = original.metadata.actor.uid === who.uid ? ownUndoNeeds[original.type] : undefined;
    const refused = sites.find((s) => !mayAtSite(who, 'changes:revert', s) && !(own && mayAtSite(who, own, s)));
    if (refused === undefined) return;
    const named = await sql<{ name: string }>`select name from sites where id::text = ${refused}`.execute(db);
    throw new ForbiddenError(`You don't have permission to revert changes at ${named.rows[0]?.name ?? 'that site'}`);
  }

  private async revertedBy(db: Transaction, ids: string[]): Promise<{ name: string; at: string } | null> {
    const rows = await sql<{ metadata: EventMetadata; created_at: Date }>`select e.metadata, e.created_at from reverts r
      join events e on e.event_id = r.reverting_event_id where r.reverted_event_id in (${sql.join(ids)}) limit 1`.execute(
      db,
    );
    const row = rows.rows[0];
    return row ? { name: row.metadata.actor.name, at: new Date(row.created_at).toISOString() } : null;
  }

  /** The locations a revert of an item's command may put stock at or take it from: those its events and the item's levels name. */
  private places(db: Transaction, loaded: Loaded): Promise<Places> | undefined {
    if (loaded.original.streamType !== 'item') return undefined;
    const ids = new Set<string>(Object.keys(foldItem(loaded.stream)?.levels ?? {}));
    for (const e of loaded.command) {
      const d = e.data as { locationId?: string; fromLocationId?: string; toLocationId?: string };
      for (const id of [d.locationId, d.fromLocationId, d.toLocationId]) if (id) ids.add(id);
    }
    return loadPlaces(db, ids, []);
  }

  /** Decides the compensating events of a command's events, latest first, each on the state the one before left. */
  private decide(
    loaded: Loaded,
    itemCount: number,
    fields?: string[],
    places?: Places,
  ): Array<{ original: StoredEvent; events: NewEvent[] }> {
    const { stream } = loaded;
    const isItem = loaded.original.streamType === 'item';
    let version = stream.at(-1)!.streamVersion;
    let state = isItem ? foldItem(stream) : null;
    // Where its locations are, so a revert decides the crossings per site too.
    if (state && places) state = withSitesOf(state, places);
    const category = isItem ? null : foldCategory(stream, itemCount);
    const out: Array<{ original: StoredEvent; events: NewEvent[] }> = [];
    for (const original of [...loaded.command].reverse()) {
      const later = stream.filter((e) => e.streamVersion > original.streamVersion);
      // Fields are picked for the edit the user chose; its command's count always reverts.
      const chosen = original.eventId === loaded.original.eventId ? fields : undefined;
      const events = isItem
        ? revertItemEvent(original, state, later, chosen, places)
        : revertCategoryEvent(original, category!, later, chosen);
      for (const event of events) {
        version += 1;
        if (isItem)
          state = evolveItem(state, event as InventoryEvent, { version, at: new Date(), streamId: original.streamId });
      }
      out.push({ original, events });
    }
    return out;
  }

  /** Locks what the compensating events touch, as the item and category commands do, and answers the item count. */
  private async lock(trx: Transaction, loaded: Loaded): Promise<number> {
    const { original } = loaded;
    if (original.streamType === 'item') {
      await sql`select pg_advisory_xact_lock(hashtextextended(${original.streamId}, 0))`.execute(trx);
      await sql`select id from items where id = ${original.streamId.slice(5)} for update`.execute(trx);
      return 0;
    }
    const rows = await sql<{
      item_count: number;
    }>`select item_count from categories where id = ${original.streamId.slice(9)}
      for update`.execute(trx);
    return Number(rows.rows[0]?.item_count ?? 0);
  }

  /** The categories an item's compensating events need, locked in id order (the item commands' order). */
  private async lockCategories(
    trx: Transaction,
    decided: Array<{ events: NewEvent[] }>,
    state: ItemState | null,
  ): Promise<void> {
    const ids = new Set<string>();
    if (state) ids.add(state.categoryId);
    for (const { events } of decided) {
      for (const e of events) {
        const d = e.data as any;
        if (e.type === 'ItemCreated') ids.add(d.categoryId);
        if (e.type === 'ItemUpdated' && d.changes.categoryId) ids.add(d.changes.categoryId.to);
      }
    }
    const sorted = [...ids].sort();
    const found = await sql<{
      id: string;
      name: string;
    }>`select id, name from categories where id in (${sql.join(sorted)})
      order by id for update`.execute(trx);
    for (const { events } of decided) {
      for (const e of events) {
        const d = e.data as any;
        const needed =
          e.type === 'ItemCreated' ? d.categoryId : e.type === 'ItemUpdated' ? d.changes.categoryId?.to : undefined;
        if (needed && !found.rows.some((r) => r.id === needed)) {
          throw new ConflictError(
            'Cannot revert: the category it belonged to was deleted since. Restore the category first.',
          );
        }
      }
    }
  }

  /** SKU and barcode must still be free for a restored item or a restored SKU/barcode. */
  private async requireFree(trx: Transaction, itemId: string, decided: Array<{ events: NewEvent[] }>): Promise<void> {
    for (const { events } of decided) {
      for (const e of events) {
        const d = e.data as any;
        const sku = e.type === 'ItemCreated' ? d.sku : d.changes?.sku?.to;
        const barcode = e.type === 'ItemCreated' ? d.barcode : d.changes?.barcode?.to;
        if (sku) {
          const taken = await sql<{
            name: string;
          }>`select name from items where lower(sku) = lower(${sku}) and id <> ${itemId}`.execute(trx);
          if (taken.rows[0]) throw new ConflictError(`Cannot revert: SKU ${sku} is now used by ${taken.rows[0].name}`);
        }
        if (barcode) {
          const taken = await sql<{
            name: string;
          }>`select name from items where barcode = ${barcode} and id <> ${itemId}`.execute(trx);
          if (taken.rows[0])
            throw new ConflictError(`Cannot revert: barcode ${barcode} is now used by ${taken.rows[0].name}`);
        }
      }
    }
  }

  async plan(eventId: string, who: Principal): Promise<RevertPlan> {
    const owned = await this.owned(eventId);
    if (owned) return owned.by.plan(owned.original, who);
    return this.store.db.transaction().execute(async (trx) => {
      const loaded = await this.load(trx, eventId);
      const { original, stream } = loaded;
      this.authorize(who, original);
      await this.authorizeAtSites(trx, who, original);
      const isItem = original.streamType === 'item';
      const itemCount = isItem
        ? 0
        : Number(
            (
              await sql<{
                item_count: number;
              }>`select item_count from categories where id = ${original.streamId.slice(9)}`.execute(trx)
            ).rows[0]?.item_count ?? 0,
          );
      const item = isItem ? foldItem(stream) : null;
      const category = isItem ? null : foldCategory(stream, itemCount);
      const name = (isItem ? item?.name : category?.name) ?? '';
      const current = isItem ? (item && !item.deleted ? item : null) : category && !category.deleted ? category : null;
      const later = stream.filter((e) => e.streamVersion > original.streamVersion);
      const revertedBy = await this.revertedBy(
        trx,
        loaded.command.map((e) => e.eventId),
      );
      let blocked: string | null = revertedBy ? `Already reverted by ${revertedBy.name} on ${revertedBy.at}` : null;
      if (!blocked) {
        try {
          this.decide(loaded, itemCount, undefined, await this.places(trx, loaded));
        } catch (error) {
          // An edit whose every field changed since is not blocked: the dialog lets the user pick.
          const allChanged = error instanceof ConflictError && error.message.startsWith('Every field');
          if (!(error instanceof DomainError) || !allChanged)
            blocked = error instanceof DomainError ? error.message : String(error);
        }
      }
      const edit = original.type === 'ItemUpdated' || original.type === 'CategoryUpdated';
      return {
        eventId: original.eventId,
        kind: revertKind(original.type),
        resourceType: isItem ? 'inventory' : 'category',
        resourceId: original.streamId.slice(original.streamId.indexOf('-') + 1),
        resourceName: name,
        summary: describeChange(original, name),
        actor: original.metadata.actor,
        timestamp: original.createdAt.toISOString(),
        fields: edit ? fieldsOfEdit(original, current as unknown as Record<string, unknown>, later) : [],
        delta: original.type === 'StockAdjusted' ? -(original.data as { delta: number }).delta : null,
        revertedBy,
        blocked,
      };
    });
  }

  async revert(eventId: string, body: RevertBody, who: Principal, meta: EventMetadata): Promise<RevertResult> {
    const owned = await this.owned(eventId);
    if (owned) return owned.by.revert(owned.original, body, who, meta);
    let wrote = false;
    const result = await this.store.db
      .transaction()
      .execute(async (trx) => {
        const first = await this.load(trx, eventId);
        this.authorize(who, first.original);
        await this.authorizeAtSites(trx, who, first.original);
        const prior = await this.store.priorResult(trx, meta.idempotencyKey);
        if (prior) {
          return {
            reverted: [first.original.eventId],
            revertingEventIds: prior.events.map((e) => e.eventId),
            ...this.describe(first),
          };
        }
        const itemCount = await this.lock(trx, first);
        // Read again under the lock: what we decide on is what the append checks.
        const loaded = await this.load(trx, eventId);
        const revertedBy = await this.revertedBy(
          trx,
          loaded.command.map((e) => e.eventId),
        );
        if (revertedBy) throw alreadyReverted(revertedBy);
        const decided = this.decide(loaded, itemCount, body.fields, await this.places(trx, loaded));
        if (loaded.original.streamType === 'item') {
          await this.lockCategories(trx, decided, foldItem(loaded.stream));
          await this.requireFree(trx, loaded.original.streamId.slice(5), decided);
        } else {
          for (const { events } of decided) {
            const d = events[0]?.data as any;
            const name = events[0]?.type === 'CategoryCreated' ? d.name : d?.changes?.name?.to;
            if (!name) continue;
            const taken =
              await sql`select id from categories where lower(name) = lower(${name}) and id <> ${loaded.original.streamId.slice(9)}`.execute(
                trx,
              );
            if (taken.rows.length) throw new ConflictError(`Cannot revert: another category is now named ${name}`);
          }
        }
        const reason = body.reason?.trim() || null;
        const commands = decided.map(({ original, events }, i) => ({
          events,
          metadata: {
            ...meta,
            // The key guards the whole revert: it goes on the first command only.
            ...(i === 0 ? {} : { idempotencyKey: undefined }),
            reverts: original.eventId,
            revertReason: reason,
          } as EventMetadata,
        }));
        for (const c of commands) if (c.metadata.idempotencyKey === undefined) delete c.metadata.idempotencyKey;
        const stream = { id: loaded.original.streamId, type: loaded.original.streamType };
        const [results] = await this.store.appendBatch(trx, [
          { stream, expectedVersion: loaded.stream.at(-1)!.streamVersion, commands },
        ]);
        wrote = true;
        return {
          reverted: decided.map((d) => d.original.eventId),
          revertingEventIds: results!.flatMap((r) =>
            r.events.filter((e) => !DERIVED.has(e.type)).map((e) => e.eventId),
          ),
          ...this.describe(loaded),
        };
      })
      .catch(async (error: unknown) => {
        if (isUniqueViolation(error, 'reverts_pkey')) {
          // Another revert of it committed first: say whose, now that it can be read.
          const by = await this.store.db.transaction().execute((trx) => this.revertedBy(trx, [eventId]));
          throw by ? alreadyReverted(by) : new ConflictError('This change was already reverted');
        }
        if (isUniqueViolation(error, 'events_stream_version_unique'))
          throw new ConflictError('The item changed while reverting; try again');
        if (isUniqueViolation(error, 'items_sku_unique')) throw new ConflictError('Cannot revert: SKU already exists');
        if (isUniqueViolation(error, 'categories_name_unique'))
          throw new ConflictError('Cannot revert: another category has that name');
        throw error;
      });
    if (wrote) this.store.committed();
    return result;
  }

  private describe(loaded: Loaded): Pick<RevertResult, 'resourceType' | 'resourceId' | 'summary'> {
    const { original, stream } = loaded;
    const isItem = original.streamType === 'item';
    const name = (isItem ? foldItem(stream)?.name : foldCategory(stream, 0).name) ?? '';
    return {
      resourceType: isItem ? 'inventory' : 'category',
      resourceId: original.streamId.slice(original.streamId.indexOf('-') + 1),
      summary: describeChange(original, name),
    };
  }

  /**
   * The change a write of this user's wrote, found by the Idempotency-Key the write was sent
   * with (what a toast's Undo reverts): the answer recorded for the key names the request,
   * whose event-store record lists the positions of exactly the events it appended. Someone
   * else's later change to the same item is never it; a write that wrote nothing has none.
   * A transfer's step is found by its event on the transfer's stream (appended first).
   */
  async changeOfWrite(uid: string, key: string): Promise<{ eventId: string; type: string }> {
    const rows = await sql<{ event_id: string; type: string }>`select e.event_id::text as event_id, e.type
      from http_idempotency h
      join event_idempotency i on i.key = h.user_id || ':' || h.key || ':' || h.request_hash
      cross join lateral jsonb_array_elements_text(i.result -> 'positions') p (position)
      join events e on e.position = p.position::bigint
      where h.user_id = ${uid} and h.key = ${key} and e.stream_type in ('item', 'category', 'transfer')
        and e.type not in ('ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered')
      order by e.position limit 1`.execute(this.store.db);
    if (!rows.rows[0]) throw new NotFoundError('Nothing to undo: that write changed nothing');
    return { eventId: rows.rows[0].event_id, type: rows.rows[0].type };
  }

  /** The change that left `streamId` at `version` (a create's answer carries it): its last non-derived event at or below it. */
  async changeAt(streamId: string, version: number): Promise<{ eventId: string; type: string }> {
    const rows = await sql<{ event_id: string; type: string }>`select event_id::text as event_id, type from events
      where stream_id = ${streamId} and stream_version <= ${version} and type not in ('ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered')
      order by stream_version desc limit 1`.execute(this.store.db);
    if (!rows.rows[0]) throw new NotFoundError('Change not found');
    return { eventId: rows.rows[0].event_id, type: rows.rows[0].type };
  }
}
