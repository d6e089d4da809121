// One batch of committed events, as the hub hands it to every connection. For each
// permission mask in use, the frames a client with that mask may see are joined into one
// Buffer, once: a live client then costs one socket write per batch, however many events.
import type { Cursor } from '../eventstore/types.js';
import { framesFor, type EncodedEvent } from './feed-messages.js';

export class PublishedBatch {
  readonly first: Cursor;
  readonly last: Cursor;
  private readonly bytesByMask = new Map<number, Buffer | null>();

  constructor(readonly events: EncodedEvent[]) {
    if (events.length === 0) throw new Error('an empty batch is never published');
    this.first = events[0]!.cursor;
    this.last = events[events.length - 1]!.cursor;
  }

  /** Everything in this batch a client with `mask` may see, framed; null when nothing. */
  bytesFor(mask: number): Buffer | null {
    let bytes = this.bytesByMask.get(mask);
    if (bytes === undefined) {
      const frames = this.events.filter((e) => (e.audience & mask) !== 0).flatMap((e) => framesFor(e, mask));
      bytes = frames.length === 0 ? null : frames.length === 1 ? frames[0]! : Buffer.concat(frames);
      this.bytesByMask.set(mask, bytes);
    }
    return bytes;
  }
}
