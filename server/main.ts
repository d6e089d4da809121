// Opens the store, migrates, seeds a fresh embedded store, listens, and shuts down
// gracefully: in-flight requests finish, then the database closes.
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { exposeEmulatorToFirebaseAdmin, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { EventStore } from './eventstore/event-store.js';
import { createTokenVerifier } from './auth/verify-token.js';
import { projections } from './features.js';
import { seedDemo, type DemoLogin } from './seed/demo-seed.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  store: EventStore;
  url: string;
  demoLogins: DemoLogin[];
  close(): Promise<void>;
}

export async function openStore(config: Config): Promise<{ database: Database; store: EventStore }> {
  let dataDir: string | undefined;
  if (!config.databaseUrl) {
    dataDir = path.join(config.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir });
  await migrate(database.db);
  return { database, store: new EventStore(database.db, projections) };
}

export async function startServer(config: Config, options: { clientDir?: string } = {}): Promise<RunningServer> {
  exposeEmulatorToFirebaseAdmin(config);
  const { database, store } = await openStore(config);
  const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: Boolean(config.authEmulatorHost) });
  const demoLogins = config.seedDemo ? await seedDemo(store, verifier.auth) : [];
  const app = await buildApp({ config, database, store, verifier, clientDir: options.clientDir });
  const url = await app.listen({ port: config.port, host: config.host });
  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    store,
    url,
    demoLogins,
    close() {
      closing ??= (async () => {
        await app.close(); // stops accepting, lets in-flight requests finish
        await verifier.close();
        await database.close();
      })();
      return closing;
    },
  };
}
