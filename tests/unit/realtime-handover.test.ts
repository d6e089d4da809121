// The catch-up to live handover of one feed connection, with the store and the dispatcher
// played by the test so every interleaving is chosen, not hoped for: live batches that
// arrive while catch-up reads, a store that can't yet see what the dispatcher saw, and a
// live buffer that overflows. The client must end with every event once, in order.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { ServerMessage } from '../../shared/realtime.js';
import type { Principal } from '../../server/auth/principal.js';
import type { TokenVerifier, VerifiedToken } from '../../server/auth/verify-token.js';
import type { Cursor, StoredEvent } from '../../server/eventstore/types.js';
import { compareCursors } from '../../server/realtime/cursor-order.js';
import { FeedConnection, type FeedContext } from '../../server/realtime/feed-connection.js';
import { encodeEvents } from '../../server/realtime/feed-messages.js';
import { PublishedBatch } from '../../server/realtime/published-batch.js';
import { createLimiter } from '../../server/realtime/limiter.js';

class FakeSocket extends EventEmitter {
  readyState = 1;
  readonly OPEN = 1;
  bufferedAmount = 0;
  received: ServerMessage[] = [];
  closedWith: { code: number; reason: string } | null = null;
  send(data: Buffer) {
    this.received.push(JSON.parse(data.toString()));
  }
  /** The raw socket side: pre-framed WebSocket text frames, possibly several in one write. */
  write(bytes: Buffer) {
    for (let at = 0; at < bytes.length;) {
      expect(bytes[at]).toBe(0x81); // FIN + text
      let length = bytes[at + 1]!;
      let header = 2;
      if (length === 126) [length, header] = [bytes.readUInt16BE(at + 2), 4];
      else if (length === 127) [length, header] = [bytes.readUInt32BE(at + 6), 10];
      this.received.push(JSON.parse(bytes.subarray(at + header, at + header + length).toString()));
      at += header + length;
    }
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }
  terminate() {
    this.readyState = 3;
  }
  ping() {}
}

const event = (n: number, streamType = 'item'): StoredEvent => ({
  position: n,
  // Transaction ids cross a digit boundary on purpose: 998, 999, 1000, ...
  txId: String(997 + n),
  streamId: `${streamType}-${n}`,
  streamType,
  streamVersion: 1,
  eventId: `e${n}`,
  type: 'Counted',
  data: { n },
  metadata: { actor: { uid: 'u', name: 'U' }, correlationId: 'c' },
  createdAt: new Date(0),
});
const cursorOf = (n: number): Cursor => ({ txId: String(997 + n), position: n });
const text = (n: number) => `${997 + n}:${n}`;

function world(options: { committed: number; live: number; maxBufferedEvents?: number }) {
  const committed = Array.from({ length: options.committed }, (_, i) => event(i + 1));
  let liveCursor = cursorOf(options.live);
  /** How far the store lets readers see (a reader may lag the dispatcher by a moment). */
  let visible = options.committed;
  let gate: Promise<void> | null = null;
  const members = new Set<FeedConnection>();
  const principal = { uid: 'u', permissions: ['inventory:view'] } as unknown as Principal;
  const token: VerifiedToken = {
    uid: 'u',
    email: null,
    name: null,
    picture: null,
    roleClaim: null,
    provider: 'password',
    expiresAt: Date.now() + 3_600_000,
  };
  const ctx: FeedContext = {
    store: {
      async readAfter(cursor: Cursor, limit = 500) {
        // What the read sees is fixed when it starts; its answer may come back later.
        const rows = committed.filter((e) => e.position <= visible && compareCursors(e, cursor) > 0).slice(0, limit);
        if (gate) await gate;
        return rows;
      },
    },
    checkResume: async (cursor) => ({
      ok: true,
      cursor: { txId: cursor.split(':')[0]!, position: Number(cursor.split(':')[1]) },
    }),
    verifier: { verify: async () => token } as unknown as TokenVerifier,
    resolvePrincipal: async () => principal,
    labels: async () => new Map(),
    readLimiter: createLimiter(4),
    liveCursor: () => liveCursor,
    join: (c) => members.add(c),
    leave: (c) => members.delete(c),
    settings: { sendBufferBytes: 1 << 20, authTimeoutMs: 10_000, maxBufferedEvents: options.maxBufferedEvents ?? 1000 },
    log: { info() {}, warn() {}, error() {} } as unknown as FeedContext['log'],
  };
  return {
    ctx,
    members,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
    setVisible(n: number) {
      visible = n;
    },
    /** The dispatcher reads events from..to and publishes them. */
    async publish(from: number, to: number): Promise<void> {
      const batch = new PublishedBatch(await encodeEvents(committed.slice(from - 1, to), async () => new Map()));
      liveCursor = cursorOf(to);
      for (const member of members) member.deliver(batch);
    },
    commit(n: number) {
      for (let i = committed.length + 1; i <= n; i++) committed.push(event(i));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 5));
const eventNumbers = (socket: FakeSocket) =>
  socket.received.filter((m) => m.type === 'event').map((m) => (m as { event: { data: { n: number } } }).event.data.n);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('feed handover from catch-up to live', () => {
  it('drops live events that catch-up already sent and sends the rest once, in order', async () => {
    const w = world({ committed: 10, live: 5 });
    const socket = new FakeSocket();
    const release = w.hold();
    new FeedConnection(socket as unknown as WebSocket, socket, w.ctx, { token: 't', cursor: text(2) });
    await settle();
    expect(socket.received[0]).toEqual({ type: 'hello', cursor: text(5) });
    await w.publish(6, 7); // arrives while catch-up is still reading
    release();
    await settle();
    await w.publish(8, 10); // the dispatcher reads what catch-up already sent
    w.commit(11);
    await w.publish(11, 11);
    expect(eventNumbers(socket)).toEqual(range(3, 11));
  });

  it('flushes buffered live events that the catch-up read could not see yet', async () => {
    const w = world({ committed: 9, live: 5 });
    w.setVisible(5); // the store shows this reader only up to the live cursor
    const socket = new FakeSocket();
    const release = w.hold();
    new FeedConnection(socket as unknown as WebSocket, socket, w.ctx, { token: 't', cursor: text(1) });
    await settle();
    await w.publish(6, 9);
    release();
    await settle();
    w.commit(10);
    await w.publish(10, 10);
    expect(eventNumbers(socket)).toEqual(range(2, 10));
  });

  it('re-reads from the store when the live buffer overflows during a long catch-up', async () => {
    const w = world({ committed: 30, live: 10, maxBufferedEvents: 3 });
    w.setVisible(10);
    const socket = new FakeSocket();
    const release = w.hold();
    new FeedConnection(socket as unknown as WebSocket, socket, w.ctx, { token: 't', cursor: '0:0' });
    await settle();
    for (let n = 11; n <= 20; n += 2) await w.publish(n, n + 1); // 10 events: overflows the buffer of 3
    w.setVisible(20);
    release();
    await settle();
    await w.publish(21, 30);
    expect(eventNumbers(socket)).toEqual(range(1, 30));
  });

  it('starts live at the hello cursor when no cursor is given', async () => {
    const w = world({ committed: 6, live: 4 });
    const socket = new FakeSocket();
    new FeedConnection(socket as unknown as WebSocket, socket, w.ctx, { token: 't', cursor: undefined });
    await settle();
    await w.publish(5, 6);
    expect(socket.received[0]).toEqual({ type: 'hello', cursor: text(4) });
    expect(eventNumbers(socket)).toEqual([5, 6]);
  });

  it('never sends events of streams the principal may not see, but moves past them', async () => {
    const w = world({ committed: 2, live: 2 });
    const socket = new FakeSocket();
    new FeedConnection(socket as unknown as WebSocket, socket, w.ctx, { token: 't', cursor: undefined });
    await settle();
    const hidden = new PublishedBatch(
      await encodeEvents([{ ...event(3, 'user'), data: { n: 3 } }], async () => new Map()),
    );
    for (const member of w.members) member.deliver(hidden);
    w.commit(4);
    await w.publish(4, 4);
    expect(eventNumbers(socket)).toEqual([4]);
  });
});
