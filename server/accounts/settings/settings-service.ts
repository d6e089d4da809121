// Store settings as events on the `settings` stream: read by everyone signed in, changed
// with Manage settings. The decision records only what actually changes.
import type { FastifyBaseLogger } from 'fastify';
import { SETTINGS_STREAM, type Settings } from '../../../shared/accounts.js';
import type { EventStore } from '../../eventstore/event-store.js';
import type { EventMetadata } from '../../eventstore/types.js';
import { retryOnConflict } from '../accounts-lock.js';
import { decideSettings } from './decide.js';
import { readSettings, settingsVersion } from './settings-queries.js';

export class SettingsService {
  constructor(private readonly store: EventStore) {}

  read(): Promise<Settings> {
    return readSettings(this.store.db);
  }

  async change(changes: Partial<Settings>, meta: EventMetadata, log: FastifyBaseLogger): Promise<Settings> {
    await retryOnConflict(async () => {
      const version = await settingsVersion(this.store.db);
      const events = decideSettings({ type: 'ChangeSettings', changes }, await this.read(), new Date());
      if (!events.length) return;
      await this.store.append(SETTINGS_STREAM, version, events, meta);
      log.info({ by: meta.actor.uid, changed: Object.keys(events[0]!.data.changes) }, 'settings changed');
    });
    return this.read();
  }
}
