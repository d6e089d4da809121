// CSV exports in the format a spreadsheet reads, over real HTTP on every
// backend: ?delimiter= and ?encoding= on the item, activity and changes exports (bytes
// checked: the BOM, the separator, decimal commas in a semicolon file, Windows-1252 bytes,
// and UTF-8 with a BOM when a name does not fit Windows-1252); the store's remembered
// export format in /api/settings (managers set it, staff read it) and the imported file's
// format recorded by the import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const BOM = [0xef, 0xbb, 0xbf];

describe.each(backends())('CSV export formats on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let fromagerie: string;
  let polska: string;
  const call = (account: TestAccount, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account.idToken, body });
  /** The answer's bytes, as a browser saves them. */
  const bytesOf = async (path: string) => {
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${staff.idToken}` } });
    expect(res.status, await res.clone().text()).toBe(200);
    return { bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') };
  };
  const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const settingsEvents = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from events where stream_id = 'settings'`.execute(
          server.store.database.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Ada Manager');
    staff = await accountWithRole(server, 'staff', 'Sam Staff');
    fromagerie = (await call(manager, 'POST', '/api/categories', { name: 'Crèmerie' })).body.id;
    polska = (await call(manager, 'POST', '/api/categories', { name: 'Polska' })).body.id;
    const add = (category_id: string, name: string, sku: string, price: number) =>
      call(manager, 'POST', '/api/inventory', { name, sku, category_id, quantity: 7, price, threshold: 2 });
    expect((await add(fromagerie, 'Crème fraîche €', 'CF-1', 4.5)).status).toBe(201);
    expect((await add(polska, 'Ser z Łodzi', 'PL-1', 12.25)).status).toBe(201);
  });
  afterAll(() => server.close());

  it('writes what it always wrote when no format is asked: comma, UTF-8 without a BOM', async () => {
    const { bytes, type } = await bytesOf(`/api/inventory/export.csv?categoryId=${fromagerie}`);
    expect(type).toBe('text/csv; charset=utf-8');
    expect([...bytes.subarray(0, 3)]).not.toEqual(BOM);
    expect(utf8(bytes)).toBe(
      'name,sku,barcode,category,quantity,price,threshold,description,expiry_date,image_url,currency\n"Crème fraîche €","CF-1","","Crèmerie",7,4.5,2,"","","","USD"\n',
    );
  });

  it("writes Excel's format for a French or German PC: BOM, semicolons, decimal commas, accents intact", async () => {
    const { bytes, type } = await bytesOf(
      `/api/inventory/export.csv?categoryId=${fromagerie}&delimiter=semicolon&encoding=utf-8-bom`,
    );
    expect(type).toBe('text/csv; charset=utf-8');
    expect([...bytes.subarray(0, 3)]).toEqual(BOM);
    const lines = utf8(bytes.subarray(3)).split('\n');
    expect(lines[0]).toBe(
      'name;sku;barcode;category;quantity;price;threshold;description;expiry_date;image_url;currency',
    );
    expect(lines[1]).toBe('"Crème fraîche €";"CF-1";"";"Crèmerie";7;4,5;2;"";"";"";"USD"');
  });

  it('writes Windows-1252 bytes when every character fits, and UTF-8 with a BOM when one does not', async () => {
    const ansi = await bytesOf(
      `/api/inventory/export.csv?categoryId=${fromagerie}&delimiter=semicolon&encoding=windows-1252`,
    );
    expect(ansi.type).toBe('text/csv; charset=windows-1252');
    const body = Buffer.from(ansi.bytes);
    // "Crème fraîche €": è is E8, î is EE, € is 80 in Windows-1252 (one byte each).
    expect(
      body.includes(
        Buffer.from([0x43, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x66, 0x72, 0x61, 0xee, 0x63, 0x68, 0x65, 0x20, 0x80]),
      ),
    ).toBe(true);
    expect(body.includes(Buffer.from('Crème', 'utf8'))).toBe(false);

    // "Ser z Łodzi": Ł is not in Windows-1252, so the whole file is UTF-8 with a BOM.
    const all = await bytesOf('/api/inventory/export.csv?encoding=windows-1252');
    expect(all.type).toBe('text/csv; charset=utf-8');
    expect([...all.bytes.subarray(0, 3)]).toEqual(BOM);
    expect(utf8(all.bytes)).toContain('"Ser z Łodzi"');
    expect(utf8(all.bytes)).toContain('"Crème fraîche €"');
  });

  it('writes tabs when asked, and refuses a format it does not know', async () => {
    const { bytes } = await bytesOf(`/api/inventory/export.csv?categoryId=${fromagerie}&delimiter=tab`);
    expect(utf8(bytes).split('\n')[1]).toBe('"Crème fraîche €"\t"CF-1"\t""\t"Crèmerie"\t7\t4.5\t2\t""\t""\t""\t"USD"');
    const pipe = await call(staff, 'GET', '/api/inventory/export.csv?delimiter=pipe');
    expect(pipe.status).toBe(400);
    expect(pipe.body.error).toMatch(/^delimiter must be equal to one of the allowed values/);
    expect((await call(staff, 'GET', '/api/activity.csv?encoding=latin9')).status).toBe(400);
  });

  it('writes the activity log and the changes report in the chosen format too', async () => {
    const activity = await bytesOf('/api/activity.csv?resourceType=inventory&delimiter=semicolon&encoding=utf-8-bom');
    expect([...activity.bytes.subarray(0, 3)]).toEqual(BOM);
    const text = utf8(activity.bytes.subarray(3));
    expect(text.split('\n')[0]).toBe(
      'timestamp;userName;userId;action;resourceType;resourceId;resourceName;details;id',
    );
    expect(text).toContain(';"Crème fraîche €";');

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const changes = await bytesOf(
      `/api/changes/export.csv?from=${encodeURIComponent(from)}&delimiter=semicolon&encoding=windows-1252`,
    );
    // Ł does not fit: UTF-8 with a BOM; the value movement takes a decimal comma (7 x 4.5 = 31,5).
    expect([...changes.bytes.subarray(0, 3)]).toEqual(BOM);
    const lines = utf8(changes.bytes.subarray(3)).split('\n');
    expect(lines[0]).toBe('category;item;sku;status;changes;stock_movement;value_movement');
    expect(lines.find((l) => l.includes('CF-1'))).toMatch(/;7;31,5$/);
  });

  it("remembers the store's export format: a manager sets it, everyone reads it, staff cannot change it", async () => {
    expect((await call(staff, 'GET', '/api/settings')).body).toMatchObject({ exportFormat: null, importFormat: null });
    const set = await call(manager, 'PUT', '/api/settings', { exportFormat: 'excel' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.exportFormat).toBe('excel');
    expect((await call(staff, 'GET', '/api/settings')).body.exportFormat).toBe('excel');

    const byStaff = await call(staff, 'PUT', '/api/settings', { exportFormat: 'standard' });
    expect(byStaff).toMatchObject({ status: 403, body: { error: expect.stringMatching(/permission/) } });
    const unknown = await call(manager, 'PUT', '/api/settings', { exportFormat: 'lotus' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^exportFormat must be equal to one of the allowed values/);
    // The imported file's format is recorded by an import, never set by hand.
    const byHand = await call(manager, 'PUT', '/api/settings', {
      importFormat: { delimiter: 'tab', encoding: 'utf-8' },
    });
    expect(byHand.status).toBe(400);
    expect((await call(manager, 'GET', '/api/settings')).body).toMatchObject({
      exportFormat: 'excel',
      importFormat: null,
    });
    expect((await call(manager, 'PUT', '/api/settings', { exportFormat: null })).body.exportFormat).toBeNull();
  });

  it("records the imported file's delimiter and encoding once, for the exports to offer", async () => {
    const commit = (row: number, format?: unknown) =>
      call(manager, 'POST', '/api/inventory/import/commit', {
        importId: '5f0c6a4e-1d7b-4c1a-9a57-0a9a0c0f1e11',
        fileName: 'épicerie.csv',
        columns: ['name', 'sku', 'category', 'quantity', 'price'],
        rows: [{ row, cells: [`Pâte ${row}`, `IMP-${row}`, 'Crèmerie', '3', '2,95'] }],
        ...(format ? { format } : {}),
      });
    expect((await commit(2)).status).toBe(200);
    expect((await call(staff, 'GET', '/api/settings')).body.importFormat).toBeNull();

    const before = await settingsEvents();
    const ansi = { delimiter: 'semicolon', encoding: 'windows-1252' };
    expect((await commit(3, ansi)).status).toBe(200);
    expect((await commit(4, ansi)).status).toBe(200); // the next batch of the same file
    expect((await call(staff, 'GET', '/api/settings')).body.importFormat).toEqual(ansi);
    expect(await settingsEvents()).toBe(before + 1);

    const bad = await commit(5, { delimiter: 'semicolon', encoding: 'ebcdic' });
    expect(bad.status).toBe(400);
    expect((await call(staff, 'GET', '/api/settings')).body.importFormat).toEqual(ansi);
    // The settings row (migration 020's columns too) is what a rebuild from the events gives.
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
