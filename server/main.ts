// Opens the store, migrates, seeds a fresh embedded store, listens, and shuts down
// gracefully: in-flight requests finish (bounded), feed clients are told to reconnect,
// then the database closes.
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
import { connectionDrain } from './http/connection-drain.js';
import { scheduleHistoryVacuum } from './db/pglite-vacuum.js';
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
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir,
    // Dropped connections are expected during database restarts and failovers: the pool
    // replaces them and requests answer 503 meanwhile. Logged, never fatal.
    onConnectionError: (error) => console.warn(`[stockroom] database connection lost: ${(error as Error).message}`),
  });
  await migrate(database.db);
  return { database, store: new EventStore(database.db, projections) };
}

export async function startServer(config: Config, options: { clientDir?: string } = {}): Promise<RunningServer> {
  exposeEmulatorToFirebaseAdmin(config);
  const { database, store } = await openStore(config);
  const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: Boolean(config.authEmulatorHost) });
  const demoLogins = config.seedDemo ? await seedDemo(store, verifier.auth) : [];
  const app = await buildApp({ config, database, store, verifier, clientDir: options.clientDir });
  const stopVacuum = scheduleHistoryVacuum(database, config.pgliteVacuumEveryMs, (message) => app.log.warn(message));
  const drain = connectionDrain(app.server);
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
        // First every answer closes its connection, so no kept-alive socket is closed under
        // a request on its way (shutdownDrainMs). Then the server stops accepting, closes feed
        // sockets with 1012 (clients reconnect and catch up by cursor), answers requests still
        // arriving on open connections with 503, and lets in-flight requests finish, for at
        // most shutdownTimeoutMs; then their connections are cut.
        await drain.drain(config.shutdownDrainMs);
        const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownTimeoutMs);
        try {
          await app.close();
        } finally {
          clearTimeout(cut);
        }
        await verifier.close();
        await stopVacuum();
        await database.close();
      })();
      return closing;
    },
  };
}
