// How big one import may be: the dry run takes the whole file in one request, so
// IMPORT_MAX_ROWS and IMPORT_MAX_BYTES bound it, and past either the manager reads a 413
// saying how big the file is and what the limit is (the import screen shows that sentence).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, startTestServer, type TestServer } from '../helpers/test-server.js';
import { newMember, type SignedIn } from './accounts-fixtures.js';

const rows = (count: number, cell = 'Thing') =>
  Array.from({ length: count }, (_, i) => ({ row: i + 2, cells: [`${cell} ${i}`] }));

describe('import limits', () => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  beforeAll(async () => {
    server = await startTestServer({ name: 'pglite' }, { env: { IMPORT_MAX_ROWS: '10', IMPORT_MAX_BYTES: '4096' } });
    manager = await newMember(server, { name: 'Import Manager' });
    staff = await newMember(server, { name: 'Import Staff' });
  });
  afterAll(() => server?.close());

  const dryRun = (who: SignedIn, body: unknown) =>
    server.request('POST', '/api/inventory/import/dry-run', { token: who.idToken, body });

  it('takes a file at the row limit, and refuses one row more with 413 saying both numbers', async () => {
    expect((await dryRun(manager, { fileName: 'ok.csv', columns: ['name'], rows: rows(10) })).status).toBe(200);
    const over = await dryRun(manager, { fileName: 'big.csv', columns: ['name'], rows: rows(11) });
    expect(over).toMatchObject({
      status: 413,
      body: { error: 'The file has 11 rows; the limit is 10. Split it into smaller files' },
    });
  });

  it('refuses a file over the byte limit with 413 before reading it, saying its size and the limit', async () => {
    const body = { fileName: 'wide.csv', columns: ['name'], rows: rows(5, 'x'.repeat(1000)) };
    expect(JSON.stringify(body).length).toBeGreaterThan(4096);
    const res = await dryRun(manager, body);
    const kb = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 1024);
    expect(res).toMatchObject({
      status: 413,
      body: {
        error: `The file is too large to import at once: ${kb} KB; the limit is 4 KB. Split it into smaller files`,
      },
    });
  });

  it('tells someone who may not import that, not how big files may be', async () => {
    const res = await dryRun(staff, { fileName: 'big.csv', columns: ['name'], rows: rows(11, 'x'.repeat(1000)) });
    expect(res.status).toBe(403);
  });

  it('defaults to 100,000 rows and 32 MiB, and refuses a setting that is not a number', () => {
    expect(testConfig().import).toEqual({ maxRows: 100_000, maxBytes: 32 * 1024 * 1024 });
    expect(() => testConfig({ IMPORT_MAX_ROWS: 'lots' })).toThrow(
      'IMPORT_MAX_ROWS must be an integer from 1 to 10000000, got "lots"',
    );
  });
});
