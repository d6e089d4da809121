// Emulator accounts carrying a role claim, for tests of features other than accounts.
// They never call POST /api/session, so the server takes their role from the claim.
import { refreshIdToken, signInAnonymously, signUp, type TestAccount } from './emulator-accounts.js';
import { allowGuestSignIn } from './guest-access.js';
import type { TestServer } from './test-server.js';

export async function accountWithRole(
  server: TestServer,
  role: 'manager' | 'staff' | 'guest' | string,
  displayName?: string,
): Promise<TestAccount> {
  if (role === 'guest') {
    await allowGuestSignIn(server); // off by default
    return signInAnonymously();
  }
  const account = await signUp({ displayName: displayName ?? `${role} tester` });
  await server.verifier.auth.setCustomUserClaims(account.uid, { role });
  await refreshIdToken(account);
  return account;
}
