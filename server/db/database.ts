// Opens the one database the app uses: PostgreSQL over `pg` when a URL is given,
// otherwise embedded PGlite in a folder (or in memory for tests). Both speak the same SQL,
// so everything above this file is written once.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteDialect } from './pglite-dialect.js';
import { lockDataFolder } from './data-folder-lock.js';
import { openListenConnection } from './listen-connection.js';
import type { DB } from './schema.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Subscribes to a NOTIFY channel (another instance's wake-up); returns the unsubscribe. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** PGlite only: a dump of its data folder, to open other databases from (see loadDataDir). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres:// URL; unset = PGlite. */
  url?: string;
  /** PGlite data folder; unset = in memory. */
  dataDir?: string;
  /**
   * PGlite only: start from this dump of a data folder (PGlite's dumpDataDir) instead of an
   * empty database. Tests open every store from one migrated dump: an empty PGlite's initdb
   * takes seconds, loading a dump about one.
   */
  loadDataDir?: Blob;
  /** PostgreSQL schema to work in (tests use one per run); created if missing. */
  schema?: string;
  poolSize?: number;
  /** Where connection losses are reported (they are expected during restarts; never fatal). */
  onConnectionError?: (error: unknown) => void;
  /** Milliseconds to wait for a new connection before the request answers 503 (default 5000). */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity (fault tests find their own backends by it). */
  applicationName?: string;
}

const INT8 = 20;
const NUMERIC = 1700;

// Positions and counts fit in a double; prices are numeric(12,2). Strings would leak into JSON.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.url ? openPostgres(options) : openPGlite(options);
}

async function openPostgres(options: OpenOptions): Promise<Database> {
  const url = options.url!;
  if (options.schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema if not exists "${options.schema}"`);
    await admin.end();
  }
  const searchPath = options.schema ? `-c search_path="${options.schema}",public` : undefined;
  const onConnectionError = options.onConnectionError ?? (() => undefined);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    // While the database is unreachable a request waits this long for a connection, then
    // answers 503; without it requests would queue for as long as the outage lasts.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // Notice a silently dead peer (a cut network, a failover) instead of waiting on it forever.
    keepAlive: true,
    application_name: options.applicationName ?? 'stockroom',
    ...(searchPath ? { options: searchPath } : {}),
  });
  // An idle client whose server went away is removed by the pool, which then emits 'error';
  // a checked-out client emits 'error' on itself if its socket dies between two queries.
  // Unhandled, either one is an uncaught exception that kills the process.
  pool.on('error', (error) => onConnectionError(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError(error));
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<{ stop(): Promise<void> }>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify) {
      // A dedicated connection that reconnects by itself (see listen-connection.ts).
      const connection = openListenConnection({
        connect: () =>
          new pg.Client({
            connectionString: url,
            keepAlive: true,
            application_name: options.applicationName ?? 'stockroom',
          }),
        channel,
        onNotify,
        onError: onConnectionError,
      });
      listeners.add(connection);
      // The first attempt may fail while the database is down; it keeps retrying, and the
      // reader's poll covers the gap.
      await connection.ready.catch(onConnectionError);
      return async () => {
        listeners.delete(connection);
        await connection.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((c) => c.stop()));
      await db.destroy();
    },
  };
}

async function openPGlite(options: OpenOptions): Promise<Database> {
  // Two processes in one data folder would corrupt it: the second is refused, clearly.
  const lock = options.dataDir ? lockDataFolder(options.dataDir) : null;
  let lite: PGlite;
  try {
    lite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      extensions: { pg_trgm },
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(lite) });
  if (options.schema) {
    await sql`create schema if not exists ${sql.id(options.schema)}`.execute(db);
    await sql`set search_path to ${sql.id(options.schema)}, public`.execute(db);
  }
  return {
    db,
    kind: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await lite.listen(channel, () => onNotify());
      return async () => unsubscribe();
    },
    dumpDataDir: () => lite.dumpDataDir('none'),
    async close() {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}
