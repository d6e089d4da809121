// `npm run projections:verify` and `projections:rebuild` as an operator runs them, on a
// PGlite data folder: exit 0 when projections match the events, 1 (naming the table) when not.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/main.js';
import { loadConfig } from '../../server/config.js';
import { CategoryService } from '../../server/categories/category-service.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

async function cli(command: 'verify' | 'rebuild', dataDir: string) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/scripts/projections.ts', command], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('projections CLI', () => {
  let dataDir: string;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('reports no difference after writes, one after tampering, and none after a rebuild', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-cli-'));
    const config = loadConfig({ DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1', LOG_LEVEL: 'silent' });
    let { database, store } = await openStore(config);
    const categories = new CategoryService(database.db, store);
    const meta = { actor: { uid: 'ops', name: 'Ops' }, correlationId: 'cli-test' };
    for (let i = 0; i < 10; i++) await categories.create({ name: `Aisle ${i}` }, meta);
    await database.close();

    const clean = await cli('verify', dataDir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('Projections match the events');

    ({ database, store } = await openStore(config));
    await sql`update categories set name = 'Tampered' where name = 'Aisle 3'`.execute(database.db);
    await database.close();

    const tampered = await cli('verify', dataDir);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('categories: 1 row(s) only in the live table, 1 only in the replay');

    expect((await cli('rebuild', dataDir)).code).toBe(0);
    expect((await cli('verify', dataDir)).code).toBe(0);
    ({ database, store } = await openStore(config));
    const names = await sql<{ name: string }>`select name from categories order by name`.execute(database.db);
    expect(names.rows.map((r) => r.name)).toContain('Aisle 3');
    await database.close();
  }, 120_000);
});
