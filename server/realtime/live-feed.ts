// The live feed's subscription to committed events: each batch is encoded once and handed to
// the hub. The last event it handed is the live cursor, the point up to which a new
// connection's catch-up reads before it takes the hub's batches (feed-connection.ts), so the
// cursor moves in the same synchronous step as the hub gets the batch: a connection that
// joins in between gets the batch from the hub, never misses it.
import type { Cursor, StoredEvent } from '../eventstore/types.js';
import { compareCursors } from './cursor-order.js';
import { encodeEvents, type EncodedEvent, type FeedSites } from './feed-messages.js';
import type { ItemLabels } from './item-labels.js';

export interface LiveFeedOptions {
  labels: ItemLabels;
  /** Receives each batch, in order. Must not throw. */
  publish(batch: EncodedEvent[]): void;
  /** Where reading started, until the first batch is handed on. */
  startCursor(): Cursor;
  /** Sites of events, and units per site when a connection limited to some sites listens (feed-messages.ts). */
  sites?(): FeedSites;
}

export class LiveFeed {
  private published: Cursor | null = null;

  constructor(private readonly options: LiveFeedOptions) {}

  /** The last event handed to the hub: live clients have everything up to here. */
  get cursor(): Cursor {
    return this.published ?? this.options.startCursor();
  }

  /** Takes one batch of committed events (a subscriber of server/subscriptions). */
  async take(events: StoredEvent[], after: Cursor): Promise<void> {
    // A batch is handed again when a subscriber failed to take it: what clients already
    // have must not reach them twice.
    const from = this.published ?? after;
    const fresh = compareCursors(events[0]!, from) > 0 ? events : events.filter((e) => compareCursors(e, from) > 0);
    if (fresh.length === 0) return;
    const encoded = await encodeEvents(fresh, this.options.labels, this.options.sites?.());
    const last = fresh[fresh.length - 1]!;
    this.published = { txId: last.txId, position: last.position };
    this.options.publish(encoded);
  }
}
