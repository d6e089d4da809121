// Runs the numbered SQL files in migrations/ once each, in order, in one transaction each.
// The same files build the schema on PostgreSQL and on PGlite.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Splits a file into statements on `;` at a line end, leaving dollar-quoted bodies whole. */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of text.split('\n')) {
    if (/^\s*--/.test(line) && !inDollar) continue;
    current += line + '\n';
    inDollar = ((line.match(/\$\$/g) ?? []).length % 2 === 1) !== inDollar;
    if (!inDollar && /;\s*$/.test(line)) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

export async function migrate(db: Kysely<any>): Promise<string[]> {
  await sql`create table if not exists schema_migrations (
    name text primary key, applied_at timestamptz not null default now())`.execute(db);
  const done = new Set(
    (await sql<{ name: string }>`select name from schema_migrations`.execute(db)).rows.map((r) => r.name),
  );
  const files = (await readdir(migrationsDir)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const text = await readFile(migrationsDir + file, 'utf8');
    await db.transaction().execute(async (trx) => {
      for (const statement of splitStatements(text)) await sql.raw(statement).execute(trx);
      await sql`insert into schema_migrations (name) values (${file})`.execute(trx);
    });
    applied.push(file);
  }
  return applied;
}
