// The outbox's rules (client/offline/outbox-core.ts) on fake-indexeddb with a scripted
// server: order, one at a time, same idempotency key on every try, what stops a replay and
// what moves a change to Conflicts, the 401 refresh, the two conflict choices, one replayer
// at a time, and that changes survive a new Outbox on the same database (a closed tab).
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../client/lib/api-client.js';
import { Outbox, type OutboxTransport } from '../../client/offline/outbox-core.js';
import { openOutboxDb, type OutboxEntry, type OutboxRequest } from '../../client/offline/outbox-db.js';
import { pendingByItem } from '../../client/offline/pending.js';
import { conflictRows } from '../../client/offline/conflict-view.js';

type Answer = 'ok' | 'offline' | 401 | 409 | 422 | 503;

/** A server that answers from a script (default: ok) and records every request it sees. */
class ScriptedServer implements OutboxTransport {
  seen: { key: string; label: string; ifMatch: number | undefined; attempts: number }[] = [];
  script: Answer[] = [];
  refreshes = 0;
  current: unknown = { version: 7, price: 15 };
  inFlight = 0;
  maxInFlight = 0;

  async send(entry: OutboxEntry, attempts: number): Promise<unknown> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 1));
    this.inFlight -= 1;
    const answer = this.script.shift() ?? 'ok';
    if (answer === 'offline') throw new ApiError('All retry attempts failed', 0);
    this.seen.push({
      key: entry.idempotencyKey,
      label: entry.label,
      ifMatch: entry.kind === 'edit' ? entry.baseVersion : undefined,
      attempts,
    });
    if (answer === 'ok') return { ok: true };
    const message = answer === 409 ? 'This item was changed by someone else' : `HTTP error! status: ${answer}`;
    throw new ApiError(
      message,
      answer,
      answer === 409 ? { error: message, current: this.current } : { error: message },
    );
  }
  async get(): Promise<unknown> {
    return this.current;
  }
  async refreshToken(): Promise<void> {
    this.refreshes += 1;
  }
}

let dbCounter = 0;

function makeOutbox(
  server: ScriptedServer,
  options: { online?: () => boolean; dbName?: string; lock?: { held: boolean } } = {},
) {
  const dbName = options.dbName ?? `outbox-test-${++dbCounter}`;
  let keys = 0;
  const lock = options.lock ?? { held: false };
  const outbox = new Outbox({
    db: () => openOutboxDb(dbName),
    transport: server,
    online: options.online ?? (() => true),
    withLock: async (run) => {
      if (lock.held) return undefined;
      lock.held = true;
      try {
        return await run();
      } finally {
        lock.held = false;
      }
    },
    newKey: () => `key-${dbName}-${++keys}`,
    now: () => 1000,
  });
  return { outbox, dbName, lock };
}

const adjust = (label: string, delta: number, itemId = 'item-1'): OutboxRequest => ({
  kind: 'adjust',
  method: 'POST',
  path: `/inventory/${itemId}/adjust`,
  body: { delta, reason: 'correction' },
  baseVersion: 3,
  label,
  itemId,
  currentPath: `/inventory/${itemId}`,
});

describe('outbox', () => {
  let server: ScriptedServer;
  let online: boolean;

  beforeEach(() => {
    server = new ScriptedServer();
    online = false;
  });

  it('queues changes made offline and keeps them for the next tab; they replay in order, once each', async () => {
    const first = makeOutbox(server, { online: () => online });
    await first.outbox.setUser('u1');
    const a = await first.outbox.sendOrQueue(adjust('Hammer -1', -1));
    const b = await first.outbox.sendOrQueue(adjust('Hammer -2', -2));
    expect(a.queued && b.queued).toBe(true);
    expect(server.seen).toHaveLength(0);

    // A new tab on the same database (the first one was closed).
    const second = makeOutbox(server, { online: () => online, dbName: first.dbName });
    await second.outbox.setUser('u1');
    expect(second.outbox.getState().waiting.map((e) => e.label)).toEqual(['Hammer -1', 'Hammer -2']);
    expect(pendingByItem(second.outbox.getState().waiting)['item-1']).toMatchObject({ delta: -3, count: 2 });

    online = true;
    const result = await second.outbox.flush();
    expect(result).toEqual({ sent: 2, conflicts: 0, stopped: 'done' });
    expect(server.seen.map((s) => s.label)).toEqual(['Hammer -1', 'Hammer -2']);
    expect(server.maxInFlight).toBe(1);
    expect(second.outbox.getState().waiting).toEqual([]);
    expect(await second.outbox.flush()).toEqual({ sent: 0, conflicts: 0, stopped: 'done' });
    expect(server.seen).toHaveLength(2);
  });

  it('sends at once when online and nothing waits; a change with no answer waits with its key', async () => {
    online = true;
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    const sent = await outbox.sendOrQueue(adjust('Hammer +1', 1));
    expect(sent).toEqual({ queued: false, data: { ok: true } });
    expect(server.seen[0]!.attempts).toBe(3);

    server.script = ['offline'];
    const lost = await outbox.sendOrQueue({ ...adjust('Hammer +5', 5), idempotencyKey: 'mine' });
    expect(lost.queued).toBe(true);
    expect(outbox.getState().waiting[0]).toMatchObject({
      idempotencyKey: 'mine',
      lastError: 'No answer from the server',
    });
    // A refusal is the caller's to show, not queued.
    server.script = ['offline', 422];
    await outbox.flush();
    expect(outbox.getState().waiting).toHaveLength(1); // still no answer: kept, same key
    await expect(outbox.sendOrQueue(adjust('behind the waiting one', 1))).resolves.toMatchObject({ queued: true });
  });

  it('a change made while others wait goes behind them, even online', async () => {
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    await outbox.sendOrQueue(adjust('first', 1));
    online = true;
    server.script = ['offline']; // the kick-off replay finds no network yet
    await outbox.sendOrQueue(adjust('second', 1));
    await new Promise((r) => setTimeout(r, 20));
    await outbox.flush();
    expect(server.seen.map((s) => s.label)).toEqual(['first', 'second']);
  });

  it('stops on no answer or a busy server and resumes from the same change with the same key', async () => {
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    await outbox.sendOrQueue(adjust('one', 1));
    await outbox.sendOrQueue(adjust('two', 1));
    online = true;
    server.script = ['ok', 503];
    expect(await outbox.flush()).toMatchObject({ sent: 1, stopped: 'busy' });
    expect(outbox.getState().waiting[0]).toMatchObject({ label: 'two', attempts: 1, lastError: 'The server is busy' });
    const key = outbox.getState().waiting[0]!.idempotencyKey;
    server.script = ['offline'];
    expect(await outbox.flush()).toMatchObject({ sent: 0, stopped: 'offline' });
    expect(await outbox.flush()).toMatchObject({ sent: 1, stopped: 'done' });
    // The server saw 'two' twice (the 503 and the success), both times under the same key.
    expect(server.seen.filter((s) => s.label === 'two').map((s) => s.key)).toEqual([key, key]);
  });

  it('a 401 refreshes the token and goes on; a second 401 stops and keeps the change', async () => {
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    await outbox.sendOrQueue(adjust('one', 1));
    online = true;
    server.script = [401, 'ok'];
    expect(await outbox.flush()).toMatchObject({ sent: 1, stopped: 'done' });
    expect(server.refreshes).toBe(1);

    online = false;
    await outbox.sendOrQueue(adjust('two', 1));
    online = true;
    server.script = [401, 401];
    expect(await outbox.flush()).toMatchObject({ sent: 0, stopped: 'auth' });
    expect(outbox.getState().waiting[0]).toMatchObject({ label: 'two', lastError: 'Sign in again to send' });
  });

  it('a 409 or 422 on replay moves the change to Conflicts with the current value and the replay goes on', async () => {
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    await outbox.sendOrQueue({
      kind: 'edit',
      method: 'PUT',
      path: '/inventory/item-1',
      body: { price: 12 },
      baseVersion: 5,
      label: 'Price of Hammer: 12',
      itemId: 'item-1',
    });
    await outbox.sendOrQueue(adjust('too many', -50));
    await outbox.sendOrQueue(adjust('fine', 1));
    online = true;
    server.script = [409, 422, 'ok'];
    expect(await outbox.flush()).toEqual({ sent: 1, conflicts: 2, stopped: 'done' });
    const conflicts = outbox.getState().conflicts;
    expect(conflicts.map((c) => [c.entry.label, c.status])).toEqual([
      ['Price of Hammer: 12', 409],
      ['too many', 422],
    ]);
    expect(conflicts[0]!.current).toEqual({ version: 7, price: 15 }); // from the 409 body
    expect(conflicts[1]!.current).toEqual({ version: 7, price: 15 }); // fetched from currentPath
    expect(outbox.getState().waiting).toEqual([]);
    expect(pendingByItem(outbox.getState().waiting)).toEqual({});
  });

  it('"Apply mine" re-sends with a new key against the current version; "Keep current" drops it and records the choice', async () => {
    const { outbox } = makeOutbox(server, { online: () => online });
    await outbox.setUser('u1');
    await outbox.sendOrQueue({
      kind: 'edit',
      method: 'PUT',
      path: '/inventory/item-1',
      body: { price: 12 },
      baseVersion: 5,
      label: 'Price 12',
      itemId: 'item-1',
    });
    await outbox.sendOrQueue({
      kind: 'edit',
      method: 'PUT',
      path: '/inventory/item-2',
      body: { price: 3 },
      baseVersion: 2,
      label: 'Price 3',
      itemId: 'item-2',
    });
    online = true;
    server.script = [409, 409];
    await outbox.flush();
    const [mine, theirs] = outbox.getState().conflicts;
    const oldKey = mine!.entry.idempotencyKey;

    await outbox.applyMine(mine!.seq);
    await expect.poll(() => outbox.getState().waiting.length + (outbox.getState().flushing ? 1 : 0)).toBe(0);
    const resent = server.seen.at(-1)!;
    expect(resent).toMatchObject({ label: 'Price 12', ifMatch: 7 });
    expect(resent.key).not.toBe(oldKey);

    await outbox.keepCurrent(theirs!.seq);
    expect(outbox.getState().conflicts).toEqual([]);
    expect((await outbox.resolvedLog()).map((r) => [r.entry.label, r.decision])).toEqual([
      ['Price 12', 'applied-mine'],
      ['Price 3', 'kept-current'],
    ]);
    await expect(outbox.keepCurrent(theirs!.seq)).rejects.toThrow('already resolved');
  });

  it("replays from one holder of the lock at a time, and only the signed-in user's changes", async () => {
    const lock = { held: false };
    const tabA = makeOutbox(server, { online: () => online, lock });
    const tabB = makeOutbox(server, { online: () => online, lock, dbName: tabA.dbName });
    await tabA.outbox.setUser('u1');
    await tabA.outbox.sendOrQueue(adjust('mine', 1));
    await tabB.outbox.setUser('u2');
    await tabB.outbox.sendOrQueue(adjust('someone else', 1));
    await tabB.outbox.setUser('u1');
    online = true;
    const [a, b] = await Promise.all([tabA.outbox.flush(), tabB.outbox.flush()]);
    expect([a.stopped, b.stopped].sort()).toEqual(['done', 'locked']);
    expect(server.seen.map((s) => s.label)).toEqual(['mine']);
    await tabA.outbox.setUser('u2');
    expect(tabA.outbox.getState().waiting.map((e) => e.label)).toEqual(['someone else']);
  });

  it('refuses changes when nobody is signed in', async () => {
    const { outbox } = makeOutbox(server);
    await expect(outbox.sendOrQueue(adjust('x', 1))).rejects.toThrow('Sign in');
  });
});

describe('what screens show of waiting and refused changes', () => {
  const entry = (over: Partial<OutboxEntry>): OutboxEntry =>
    ({
      seq: 1,
      kind: 'adjust',
      method: 'POST',
      path: '/x',
      label: 'x',
      idempotencyKey: 'k',
      uid: 'u1',
      createdAt: 0,
      attempts: 0,
      lastError: null,
      ...over,
    }) as OutboxEntry;

  it('sums stock deltas per item, keeps edited fields, and leaves stocktake counts unmarked', () => {
    const pending = pendingByItem([
      entry({ itemId: 'a', body: { delta: 2 } }),
      entry({ itemId: 'a', kind: 'edit', body: { price: 3 } }),
      entry({ itemId: 'a', body: { delta: -5 } }),
      entry({ itemId: 'b', kind: 'count', body: { itemId: 'b', counted: 4, countedAt: 'T' } }),
    ]);
    expect(pending).toEqual({ a: { delta: -3, fields: { price: 3 }, count: 3 } });
  });

  it('shows an edit field by field against the current item, and a stock change against the quantity', () => {
    const edit = {
      seq: 1,
      status: 409,
      message: 'changed',
      at: 0,
      entry: entry({ kind: 'edit', body: { price: 9.5, category_id: 'c2' } }),
      current: { price: 12, categoryId: 'c1' },
    };
    expect(conflictRows(edit)).toEqual([
      { field: 'Price', mine: '9.5', current: '12' },
      { field: 'Category', mine: 'c2', current: 'c1' },
    ]);
    const adjust = { ...edit, entry: entry({ body: { delta: -50, reason: 'sale' } }), current: { quantity: 2 } };
    expect(conflictRows(adjust)).toEqual([{ field: 'Stock change', mine: '-50', current: '2 in stock' }]);
  });
});

describe('outbox replay timing', () => {
  it('a change queued just as a replay finishes is sent by that replay, not left for the next trigger', async () => {
    const server = new ScriptedServer();
    let online = false;
    let lateChange: (() => Promise<unknown>) | null = null;
    const dbName = `outbox-timing-${++dbCounter}`;
    const outbox = new Outbox({
      db: () => openOutboxDb(dbName),
      transport: server,
      online: () => online,
      // The replay has found nothing more to send; before it lets go, another change arrives.
      withLock: async (run) => {
        const result = await run();
        const late = lateChange;
        lateChange = null;
        if (late) await late();
        return result;
      },
      newKey: () => crypto.randomUUID(),
      now: () => 1000,
    });
    await outbox.setUser('u1');
    await outbox.sendOrQueue(adjust('first', 1));
    online = true;
    lateChange = () => outbox.sendOrQueue(adjust('second', 1));
    await outbox.flush();
    expect(server.seen.map((s) => s.label)).toEqual(['first', 'second']);
    expect(outbox.getState().waiting).toEqual([]);
  });
});
