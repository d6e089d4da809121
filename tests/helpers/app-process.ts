// A Stockroom server in a process of its own, on an existing test database schema, for tests
// that kill it (kill -9) mid-work. Started with fork() and an IPC channel; sends
// { address } once listening. Everything comes from the environment: STOCKROOM_TEST_DB_URL,
// STOCKROOM_TEST_SCHEMA, STOCKROOM_TEST_EMULATOR, STOCKROOM_TEST_PROJECT.
import { buildApp } from '../../server/app.js';
import { createTokenVerifier } from '../../server/auth/verify-token.js';
import { exposeEmulatorToFirebaseAdmin, loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import { TEST_SECRETS_KEY } from './test-server.js';

const env = process.env;
const config = loadConfig({
  FIREBASE_PROJECT_ID: env.STOCKROOM_TEST_PROJECT!,
  FIREBASE_AUTH_EMULATOR_HOST: env.STOCKROOM_TEST_EMULATOR!,
  LOG_LEVEL: 'silent',
  PORT: '0',
  RATE_LIMIT_PER_MINUTE: '1000000',
  SECRETS_KEY: TEST_SECRETS_KEY,
});
exposeEmulatorToFirebaseAdmin(config);
const database = await openDatabase({
  url: env.STOCKROOM_TEST_DB_URL!,
  schema: env.STOCKROOM_TEST_SCHEMA!,
  poolSize: 10,
});
const store = new EventStore(database.db, projections);
const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: true });
const app = await buildApp({ config, database, store, verifier });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send!({ address });
