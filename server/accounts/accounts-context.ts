// What the accounts services need: the event store (and its database), firebase-admin's
// Auth for real accounts and custom claims, and the Identity Toolkit for email changes.
import type { Auth } from 'firebase-admin/auth';
import type { EventStore } from '../eventstore/event-store.js';
import type { IdentityToolkit } from './firebase-accounts.js';

export interface AccountsContext {
  store: EventStore;
  auth: Auth;
  /** Where email change links are asked for; absent where no email ever changes (the demo seed). */
  identityToolkit?: IdentityToolkit;
}
