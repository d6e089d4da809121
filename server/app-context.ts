// What the app is built from: configuration, the database, the event store, the token
// verifier, the subscriptions to what was committed and the clock. Its own module so features
// can take it without importing the app that builds them.
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { EventStore } from './eventstore/event-store.js';
import type { PrincipalResolver } from './auth/principal.js';
import type { CommitSubscriptions, Subscriptions } from './subscriptions/subscriptions.js';
import type { TokenVerifier } from './auth/verify-token.js';

/** Where commands read the time from: injected, so tests can set it and decisions stay pure. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface AppContext {
  config: Config;
  database: Database;
  store: EventStore;
  verifier: TokenVerifier;
  /** Where what runs after commit subscribes (feed, principal cache, webhooks); the app starts and stops it. */
  subscriptions: CommitSubscriptions;
  resolvePrincipal?: PrincipalResolver;
  /** The time commands are decided at (default: the system's clock). */
  clock?: Clock;
  /** Folder of the built client; unset = API only. */
  clientDir?: string;
  /** Where the log goes (default stdout); tests read it to check what never appears there. */
  logStream?: { write(line: string): void };
}

/** What buildApp is given: without subscriptions, it makes them from the database and store. */
export type AppParts = Omit<AppContext, 'subscriptions'> & { subscriptions?: Subscriptions };
