// First start of a store: the demo store (demo-store.ts), written as events through the event
// store (never SQL inserts), and the demo accounts. Runs once: a store with events (beyond the migrations') is left alone.
import type { Auth } from 'firebase-admin/auth';
import { sql } from 'kysely';
import type { EventStore } from '../eventstore/event-store.js';
import { ensureDemoAccounts, registerDemoAccounts, type DemoLogin } from './demo-accounts.js';
import { seedDemoStore } from './demo-store.js';

export type { DemoLogin };

export async function seedDemo(store: EventStore, auth: Auth): Promise<DemoLogin[]> {
  const logins = await ensureDemoAccounts(auth);
  // The migrations' own events (Main store and its location) do not make a store used.
  const count = await sql<{ n: number }>`select count(*)::int as n from events
    where metadata ->> 'correlationId' is distinct from 'sites-migration'`.execute(store.db);
  // Registering writes events, so the store's freshness is read first.
  await registerDemoAccounts(store, auth, logins);
  if (count.rows[0]!.n === 0) await seedDemoStore(store, logins);
  return logins;
}
