// The process the command-path bench measures: the real app (buildApp) and a bare Fastify
// server on the same database, in one process so PGlite can serve both. The bare routes do
// the least work that gives the same answer: one UPDATE ... RETURNING for an adjustment, one
// primary-key SELECT for a read, and no token check, schema or hooks (on a copy of the items
// table, see below). The two are measured in turn, never at once. Talks to the bench over
// IPC: sends { ready } once listening, and stops when told.
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.js';
import { exposeEmulatorToFirebaseAdmin, loadConfig } from '../../server/config.js';
import { createTokenVerifier } from '../../server/auth/verify-token.js';
import { openBenchStore, type BenchBackend } from './bench-kit.js';
import { BenchCatalog } from './generate-items.js';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { LocationService } from '../../server/sites/location-service.js';
import { PlaceQueries } from '../../server/sites/place-queries.js';

if (process.env.BENCH_TRACE) await import('./command-path-trace.js');

const backend: BenchBackend = process.env.BENCH_URL
  ? { name: 'postgres', url: process.env.BENCH_URL }
  : { name: 'pglite' };
const spreadCount = Number(process.env.BENCH_SPREAD_ITEMS ?? 1000);

const bench = await openBenchStore(backend, Number(process.env.BENCH_POOL ?? 20));
const config = loadConfig({
  FIREBASE_PROJECT_ID: process.env.BENCH_PROJECT!,
  FIREBASE_AUTH_EMULATOR_HOST: process.env.BENCH_EMULATOR!,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '1000000',
});
exposeEmulatorToFirebaseAdmin(config);
const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: true });
const app = await buildApp({ config, database: bench.database, store: bench.store, verifier });
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

const db = bench.database.db;
const bare = Fastify();
bare.post<{ Params: { id: string }; Body: { delta: number } }>('/bare/:id/adjust', async (request) => {
  const rows =
    await sql`update bare_items set quantity = quantity + ${request.body.delta}, version = version + 1, updated_at = now()
    where id = ${request.params.id} returning *`.execute(db);
  return rows.rows[0];
});
bare.get<{ Params: { id: string } }>('/bare/:id', async (request) => {
  const rows = await sql`select * from bare_items where id = ${request.params.id}`.execute(db);
  return rows.rows[0];
});
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const ids = await new BenchCatalog(bench.store).addItems(spreadCount + 1);
// A second location at the main site, made as a manager makes one: the adjustments that name
// a location put their stock there.
const backRoom = await new LocationService(bench.store, new PlaceQueries(db)).create(
  { siteId: MAIN_SITE_ID, parentId: null, name: 'Back room', code: 'BACK' },
  { actor: { uid: 'bench', name: 'Bench' }, correlationId: 'bench-places' },
);
// The bare routes work on a copy with the same columns and indexes: their UPDATEs append no
// events, so on the items table itself they would leave rows ahead of their streams.
await sql`create table bare_items (like items including all)`.execute(db);
await sql`insert into bare_items select * from items`.execute(db);
await sql`analyze`.execute(db);

process.send!({ ready: { appUrl, bareUrl, hot: ids[0], spread: ids.slice(1), locationId: backRoom.id } });
process.on('message', async (message: { stop?: boolean; env?: Record<string, string>; sql?: string[] }) => {
  if (message.env) Object.assign(process.env, message.env);
  if (message.sql) {
    // command-path-ab.ts: a variant's schema (say, an index dropped or put back), then an answer.
    for (const statement of message.sql) await sql.raw(statement).execute(db);
    process.send!({ done: true });
  }
  if (!message.stop) return;
  await app.close();
  await bare.close();
  await verifier.close();
  await bench.close();
  process.exit(0);
});
