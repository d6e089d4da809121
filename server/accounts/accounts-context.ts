// What the accounts services need: the event store (and its database) and firebase-admin's
// Auth for real accounts and custom claims.
import type { Auth } from 'firebase-admin/auth';
import type { EventStore } from '../eventstore/event-store.js';

export interface AccountsContext {
  store: EventStore;
  auth: Auth;
}
