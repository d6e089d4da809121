// `npm run migrate`: applies pending migrations to the configured database.
import { openConfiguredStore } from './open-configured-store.js';
import { migrate } from '../db/migrate.js';

const { database } = await openConfiguredStore(); // opening already migrates
const pending = await migrate(database.db);
console.log(pending.length ? `Applied ${pending.join(', ')}` : `Schema is up to date (${database.kind})`);
await database.close();
