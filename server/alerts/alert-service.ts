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

  list(uid: string): Promise<LowStockAlert[]> {
    return this.queries.list(uid);
  }

  /** Dismisses the item's current alert for this user; returns the alert as the user now sees it. */
  dismiss(uid: string, itemId: string, meta: EventMetadata): Promise<LowStockAlert> {
    return this.run({ type: 'Dismiss', uid, itemId }, meta);
  }

  restore(uid: string, itemId: string, meta: EventMetadata): Promise<LowStockAlert> {
    return this.run({ type: 'Restore', uid, itemId }, meta);
  }

  private async run(
    command: { type: 'Dismiss' | 'Restore'; uid: string; itemId: string },
    meta: EventMetadata,
  ): Promise<LowStockAlert> {
    await retryOnRace(() =>
      this.store.transact(async (trx, append) => {
        await sql`select id from items where id = ${command.itemId} for update`.execute(trx);
        const events = decideAlert(command, await this.queries.itemState(trx, command.uid, command.itemId));
        if (events.length) await append(alertStream(command.uid), 'any', events, meta);
      }),
    );
    const [alert] = await this.queries.list(command.uid, command.itemId);
    // Restoring an alert whose item recovered meanwhile: nothing left to show.
    if (!alert) throw new NotFoundError('This item is no longer low on stock');
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
