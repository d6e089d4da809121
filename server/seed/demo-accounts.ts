// Demo logins for the local emulator. Fixed uids, recreated at every start when missing,
// so they sign in even if the emulator's saved state was lost, and registered in the
// store's users projection with their roles.
import type { Auth } from 'firebase-admin/auth';
import { UserService } from '../accounts/users/user-service.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { EventMetadata } from '../eventstore/types.js';

export interface DemoLogin {
  uid: string;
  email: string;
  password: string;
  displayName: string;
  role: 'manager' | 'staff';
}

export const DEMO_LOGINS: DemoLogin[] = [
  {
    uid: 'demo-manager',
    email: 'manager@stockroom.test',
    password: 'manager123',
    displayName: 'Morgan Manager',
    role: 'manager',
  },
  { uid: 'demo-staff', email: 'staff@stockroom.test', password: 'staff123', displayName: 'Sam Staff', role: 'staff' },
];

export async function ensureDemoAccounts(auth: Auth): Promise<DemoLogin[]> {
  for (const login of DEMO_LOGINS) {
    try {
      await auth.getUser(login.uid);
    } catch {
      await auth.createUser({
        uid: login.uid,
        email: login.email,
        password: login.password,
        displayName: login.displayName,
        emailVerified: true,
      });
    }
    await auth.setCustomUserClaims(login.uid, { role: login.role });
  }
  return DEMO_LOGINS;
}

/**
 * The demo logins as accounts of this store: registered through the accounts feature (so as
 * events), the manager first, so on a fresh store it is the founding manager. Accounts
 * already registered are left as they are.
 */
export async function registerDemoAccounts(
  store: EventStore,
  auth: Auth,
  logins: DemoLogin[] = DEMO_LOGINS,
): Promise<void> {
  const users = new UserService({ store, auth });
  const meta: EventMetadata = { actor: { uid: null, name: 'Demo seed' }, correlationId: 'demo-seed' };
  const ordered = [...logins].sort((a, b) => Number(b.role === 'manager') - Number(a.role === 'manager'));
  for (const login of ordered) {
    await users.execute(
      login.uid,
      {
        type: 'Register',
        uid: login.uid,
        name: login.displayName,
        email: login.email,
        provider: 'password',
        avatar: null,
        registeredBy: 'seed',
        requestedRole: login.role,
      },
      meta,
    );
  }
}
