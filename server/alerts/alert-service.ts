// Runs alert commands: reads the item's alert state, decides, and appends to the user's
// `alerts-<uid>` stream in one transaction (the item row is locked, so a recovery can't
// slip between reading the open episode and recording the dismissal).
import { sql } from 'kysely';
import { alertStream, type AlertSettings, type LowStockAlert } from '../../shared/alerts.js';
import { WrongExpectedVersionError, type EventStore } from '../eventstore/event-store.js';
import type { EventMetadata } from '../eventstore/types.js';
import { NotFoundError } from '../errors.js';
import type { AlertQueries } from './alert-queries.js';
import { decideAlert, decideAlertSettings } from './decide.js';

export class AlertService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: AlertQueries,
  ) {}

  /** The open alerts this user may see (`sites`: site-access.ts visibleSites). */
  list(uid: string, sites: 'all' | readonly string[] = 'all'): Promise<LowStockAlert[]> {
    return this.queries.list(uid, { sites });
  }

  /**
   * Dismisses the item's current alert for this user (at `siteId`: its alert at that site);
   * returns the alert as the user now sees it.
   */
  dismiss(uid: string, itemId: string, meta: EventMetadata, siteId?: string): Promise<LowStockAlert> {
    return this.run({ type: 'Dismiss', uid, itemId, ...(siteId ? { siteId } : {}) }, meta);
  }

  restore(uid: string, itemId: string, meta: EventMetadata, siteId?: string): Promise<LowStockAlert> {
    return this.run({ type: 'Restore', uid, itemId, ...(siteId ? { siteId } : {}) }, meta);
  }

  private async run(
    command: { type: 'Dismiss' | 'Restore'; uid: string; itemId: string; siteId?: string },
    meta: EventMetadata,
  ): Promise<LowStockAlert> {
    await retryOnRace(() =>
      this.store.transact(async (trx, append) => {
        await sql`select id from items where id = ${command.itemId} for update`.execute(trx);
        const state = await this.queries.itemState(trx, command.uid, command.itemId, command.siteId);
        const events = decideAlert(command, state);
        if (events.length) await append(alertStream(command.uid), 'any', events, meta);
      }),
    );
    const [alert] = await this.queries.list(command.uid, { itemId: command.itemId, siteId: command.siteId ?? null });
    // Restoring an alert whose item recovered meanwhile: nothing left to show.
    if (!alert) throw new NotFoundError(`This item is no longer low on stock${command.siteId ? ' at this site' : ''}`);
    return alert;
  }

  settings(uid: string): Promise<AlertSettings> {
    return this.queries.settings(uid);
  }

  async changeSettings(uid: string, settings: AlertSettings, meta: EventMetadata): Promise<AlertSettings> {
    await retryOnRace(() =>
      this.store.transact(async (trx, append) => {
        const events = decideAlertSettings(
          { type: 'ChangeSettings', uid, settings },
          await this.queries.settings(uid, trx),
        );
        if (events.length) await append(alertStream(uid), 'any', events, meta);
      }),
    );
    return this.queries.settings(uid);
  }
}

/**
 * Two commands of one user at once (dismissing two alerts) race for the stream's next
 * version; the loser decides again on fresh state.
 */
async function retryOnRace<T>(work: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= attempts) throw error;
    }
  }
}
