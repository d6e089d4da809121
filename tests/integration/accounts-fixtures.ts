// Shared steps of the accounts tests: real emulator accounts that sign in to a test server
// through POST /api/session, as the client does after every sign-in.
import { sql } from 'kysely';
import { expect } from 'vitest';
import { refreshIdToken, signInAnonymously, signUp, type TestAccount } from '../helpers/emulator-accounts.js';
import { allowGuestSignIn } from '../helpers/guest-access.js';
import type { TestServer } from '../helpers/test-server.js';

export interface SignedIn extends TestAccount {
  /** The body of the POST /api/session answer. */
  session: any;
}

/** Signs in to the store; when the server says so, refreshes the token to carry the new claim. */
export async function startSession(
  server: TestServer,
  account: TestAccount,
  body: Record<string, unknown> = {},
): Promise<SignedIn> {
  const res = await server.request('POST', '/api/session', { token: account.idToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (res.body.refreshToken) await refreshIdToken(account);
  return { ...account, session: res.body };
}

export async function newMember(
  server: TestServer,
  options: { requestedRole?: 'staff' | 'manager'; name?: string } = {},
): Promise<SignedIn> {
  const account = await signUp({ displayName: options.name });
  return startSession(server, account, options.requestedRole ? { requestedRole: options.requestedRole } : {});
}

/** A guest session; switches guest sign-in on first (off by default), as a manager would. */
export async function newGuest(server: TestServer): Promise<SignedIn> {
  await allowGuestSignIn(server);
  return startSession(server, await signInAnonymously());
}

/** A fresh store's cast: the first sign-up (manager), a staff member and a guest. */
export async function cast(server: TestServer): Promise<{ manager: SignedIn; staff: SignedIn; guest: SignedIn }> {
  const manager = await newMember(server, { name: 'Morgan Manager' });
  const staff = await newMember(server, { name: 'Sam Staff' });
  const guest = await newGuest(server);
  return { manager, staff, guest };
}

export async function eventCount(server: TestServer): Promise<number> {
  const rows = await sql<{ n: number }>`select count(*)::int as n from events`.execute(server.store.database.db);
  return Number(rows.rows[0]!.n);
}
