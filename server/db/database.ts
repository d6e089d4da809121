// Opens the one database the app uses: PostgreSQL over `pg` when a URL is given,
// otherwise embedded PGlite in a folder (or in memory for tests). Both speak the same SQL,
// so everything above this file is written once.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Subscribes to a NOTIFY channel (another instance's wake-up); returns the unsubscribe. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres:// URL; unset = PGlite. */
  url?: string;
  /** PGlite data folder; unset = in memory. */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests use one per run); created if missing. */
  schema?: string;
  poolSize?: number;
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
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    ...(searchPath ? { options: searchPath } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const listeners: pg.Client[] = [];
  let closing = false;
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify) {
      // A dedicated connection; if it drops it is opened again (the poll backstop covers the gap).
      let client: pg.Client | null = null;
      let stopped = false;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        next.on('notification', (n) => n.channel === channel && onNotify());
        next.on('error', () => undefined);
        next.on('end', () => {
          const at = listeners.indexOf(next);
          if (at >= 0) listeners.splice(at, 1);
          if (!stopped && !closing) setTimeout(() => void connect().then(onNotify, () => undefined), 1000).unref();
        });
        await next.connect();
        await next.query(`listen "${channel}"`);
        client = next;
        listeners.push(next);
      };
      await connect();
      return async () => {
        stopped = true;
        await client?.end().catch(() => undefined);
      };
    },
    async close() {
      closing = true;
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await db.destroy();
    },
  };
}

async function openPGlite(options: OpenOptions): Promise<Database> {
  const lite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    extensions: { pg_trgm },
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
  });
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
    async close() {
      await db.destroy();
    },
  };
}
