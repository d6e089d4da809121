// LISTEN on PostgreSQL survives its connection being dropped: another instance's wake-up
// still arrives after the listener reconnects.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestStore, reportMissingServer, serverBackends } from '../helpers/backends.js';

reportMissingServer('LISTEN reconnect');

describe.each(serverBackends())('LISTEN on $name', (backend) => {
  it('reconnects after its connection is terminated', async () => {
    const t = await openTestStore(backend);
    const channel = `wake_${Math.random().toString(36).slice(2, 8)}`;
    let heard = 0;
    const stop = await t.database.listen(channel, () => heard++);
    const notify = () => sql`select pg_notify(${channel}, '')`.execute(t.database.db);
    const waitForHeard = async (n: number) => {
      for (let i = 0; i < 100 && heard < n; i++) await new Promise((r) => setTimeout(r, 100));
    };
    await notify();
    await waitForHeard(1);
    expect(heard).toBeGreaterThanOrEqual(1);

    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${`listen "${channel}"`}`.execute(
      t.database.db,
    );
    const before = heard;
    await new Promise((r) => setTimeout(r, 2500)); // reconnect after ~1 s
    await notify();
    // One wake-up for the reconnect itself (something may have been missed), one for the notify.
    await waitForHeard(before + 2);
    expect(heard).toBeGreaterThanOrEqual(before + 2);
    await stop();
    await t.close();
  });
});
