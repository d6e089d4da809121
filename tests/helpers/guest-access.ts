// Guest (anonymous) sign-in is off by default: tests that sign in as a guest
// switch it on first, as a manager would in Settings. Written as the same SettingsChanged
// event the settings page appends; nothing is written when it is on already.
import { randomUUID } from 'node:crypto';
import { SettingsService } from '../../server/accounts/settings/settings-service.js';
import type { TestServer } from './test-server.js';

export async function allowGuestSignIn(server: Pick<TestServer, 'store' | 'app'>, on = true): Promise<void> {
  const meta = { actor: { uid: null, name: 'Test setup' }, correlationId: randomUUID() };
  await new SettingsService(server.store.store).change({ allowGuests: on }, meta, server.app.log);
}
