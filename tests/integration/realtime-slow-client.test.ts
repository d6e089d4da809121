// A client that stops reading is dropped once its send buffer passes the limit, instead of
// holding server memory or slowing everyone; it reconnects with its cursor and catches up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('a feed client that cannot keep up', { timeout: 120_000 }, () => {
  let server: TestServer;
  let staff: TestAccount;

  beforeAll(async () => {
    server = await startTestServer(backends()[0]!, { env: { REALTIME_SEND_BUFFER_BYTES: String(64 * 1024) } });
    staff = await accountWithRole(server, 'staff');
  });
  afterAll(() => server.close());

  it('is dropped while a reading client is not, and catches up on reconnect', async () => {
    const slow = await connectFeed(server.url, { token: staff.idToken });
    const brisk = await connectFeed(server.url, { token: staff.idToken });
    await Promise.all([slow, brisk].map((c) => c.waitFor((m) => m.some((x) => x.type === 'hello'))));
    slow.ws.pause(); // stops reading: the kernel buffers fill, then the server's

    // ~12 MB of events: far more than the socket buffers plus the 64 KB limit.
    const padding = 'x'.repeat(8 * 1024);
    const meta = { actor: { uid: staff.uid, name: 'Staff' }, correlationId: 'slow-client' };
    for (let batch = 0; batch < 30; batch++) {
      const events = Array.from({ length: 50 }, (_, i) => ({
        type: 'BulkNoted',
        data: { i: batch * 50 + i, padding },
      }));
      await server.store.store.append({ id: `item-${randomUUID()}`, type: 'item' }, 0, events, meta);
      // Paced like a busy store, not a bulk load: the reading client gets each batch before the next.
      await brisk.waitForEvents((batch + 1) * 50);
    }

    slow.ws.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(1006); // terminated: no close frame could get past its full buffer
    const got = slow.events();
    expect(got.length).toBeLessThan(1500);

    const total = await sql<{ n: number }>`select count(*)::int as n from events where type = 'BulkNoted'`.execute(
      server.store.database.db,
    );
    expect(total.rows[0]!.n).toBe(1500);
    const back = await connectFeed(server.url, {
      token: staff.idToken,
      cursor: got[got.length - 1]?.cursor ?? (slow.messages[0] as { cursor: string }).cursor,
    });
    const rest = await back.waitForEvents(1500 - got.length);
    expect([...got, ...rest].map((e) => e.cursor)).toEqual(brisk.events().map((e) => e.cursor));
    await Promise.all([back.close(), brisk.close()]);
  });
});
