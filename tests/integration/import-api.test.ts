// CSV import through the real API, on every backend: a file with 35 bad rows of every kind
// is parsed as the browser parses it, dry-run (exactly those 35 reported, with row numbers),
// committed in batches, imported again (nothing changes), and resumed after a commit cut off
// in the middle (nothing doubled). Semicolon Windows-1252 and BOM UTF-8 files keep their
// accents. Every change is an event the activity log and history attribute to the file.
// The 10,000-row file runs on one backend (PostgreSQL when there is one, else PGlite); the
// others get the same 35 bad rows in 600 rows: the rows' handling does not depend on the
// backend, and 10,000 rows twice would cost CI minutes (volumes are `npm run bench import`).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_BATCH_ROWS, type CommitRowResult, type ImportRow } from '../../shared/import.js';
import { guessMapping } from '../../client/features/import/column-mapping.js';
import { decodeFile } from '../../client/features/import/decode-file.js';
import { parseCsv } from '../../client/features/import/parse-csv.js';
import { batchesOf, toImportRows } from '../../client/features/import/import-rows.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { projections } from '../../server/features.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { fixtureEan, fixtureSku, stockFile } from '../helpers/import-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { MAIN_SITE_ID } from '../../shared/places.js';

const COLUMN_OF_KIND = {
  'missing name': 'name',
  'bad price': 'price',
  'duplicate sku': 'sku',
  'unterminated quote': null,
  'bad check digit': 'barcode',
  formula: 'name',
} as const;

const all = backends();
/** The backend that gets the 10,000-row file: the PostgreSQL server when there is one. */
const big = all.find((b) => b.url) ?? all[0]!;

describe.each(all.map((b) => ({ ...b, rows: b === big ? 10_000 : 600 })))(
  'CSV import API on $name ($rows rows)',
  (backend) => {
    let server: TestServer;
    let manager: TestAccount;
    let staff: TestAccount;
    const post = (account: TestAccount, path: string, body: unknown) =>
      server.request('POST', path, { token: account.idToken, body });
    const file = stockFile(backend.rows);
    const good = file.good;
    const fileName = 'stock.csv';

    /** The file as the import page sends it: decoded, parsed and mapped as in the browser. */
    function prepare(bytes: Uint8Array) {
      const parsed = parseCsv(decodeFile(bytes).text);
      return { parsed, ...toImportRows(parsed, guessMapping(parsed.header)) };
    }

    async function commitAll(
      importId: string,
      name: string,
      columns: string[],
      rows: ImportRow[],
    ): Promise<CommitRowResult[]> {
      const results: CommitRowResult[] = [];
      for (const batch of batchesOf(rows, IMPORT_BATCH_ROWS)) {
        const res = await post(manager, '/api/inventory/import/commit', {
          importId,
          fileName: name,
          columns,
          rows: batch,
        });
        expect(res.status).toBe(200);
        results.push(...res.body.results);
      }
      return results;
    }

    const tally = (results: CommitRowResult[]) =>
      results.reduce<Record<string, number>>((n, r) => ({ ...n, [r.outcome]: (n[r.outcome] ?? 0) + 1 }), {});
    const countEvents = async () =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from events`.execute(server.store.database.db)).rows[0]!.n,
      );

    beforeAll(async () => {
      server = await startTestServer(backend);
      manager = await accountWithRole(server, 'manager', 'Mia Manager');
      staff = await accountWithRole(server, 'staff', 'Stan Staff');
      // The store already has the Tools category and two of the file's items (at other prices).
      const tools = await post(manager, '/api/categories', { name: 'tools' });
      for (const i of [30, 31]) {
        const res = await post(manager, '/api/inventory', {
          name: `Widget ${i}`,
          sku: fixtureSku(i),
          category_id: tools.body.id,
          quantity: 1,
          price: 999,
          threshold: 5,
          description: `Part ${i}, boxed`,
        });
        expect(res.status).toBe(201);
      }
    });
    afterAll(() => server?.close());

    // Creations commit through the set-based forms of the projections (one statement for the
    // batch), and so do updates of existing items. Both must leave exactly what a replay
    // through the handlers leaves, search words included.
    it('leaves projections equal to a replay after batches of creations and of mixed rows', async () => {
      const db = server.store.database.db;
      const mixers = await post(manager, '/api/categories', { name: 'Mixers' });
      const existing = [
        { sku: 'MIX-1', quantity: 10, threshold: 5, barcode: null },
        { sku: 'MIX-2', quantity: 2, threshold: 5, barcode: null },
        { sku: 'MIX-3', quantity: 8, threshold: 2, barcode: fixtureEan(7_000_001) },
      ];
      for (const e of existing) {
        const res = await post(manager, '/api/inventory', {
          name: `Mixer ${e.sku}`,
          sku: e.sku,
          category_id: mixers.body.id,
          quantity: e.quantity,
          price: 12.5,
          threshold: e.threshold,
          description: 'Stand mixer',
          ...(e.barcode ? { barcode: e.barcode } : {}),
        });
        expect(res.status).toBe(201);
      }
      const columns = [
        'name',
        'sku',
        'barcode',
        'category',
        'quantity',
        'price',
        'threshold',
        'description',
        'expiry_date',
        'image_url',
      ];
      const createRow = (row: number, i: number, prefix: string) => ({
        row,
        cells: [
          `Whisk ${prefix} ${i} Ölmühle`,
          `${prefix}-${i}`,
          i % 2 === 0 ? fixtureEan(7_100_000 + row) : '',
          i % 3 === 0 ? 'Mixers' : 'Blenders',
          String(i % 7),
          `${i}.25`,
          i % 4 === 0 ? '0' : '3',
          i % 5 === 0 ? '' : `Balloon whisk ${i}, stainless-steel`,
          i % 6 === 0 ? '2031-05-01' : '',
          i % 8 === 0 ? 'https://example.com/whisk.png' : '',
        ],
      });
      const creations = Array.from({ length: 60 }, (_, i) => createRow(i + 2, i, 'MIXC'));
      // Counts of existing items beside creations: still one statement (adjustments have batch forms too).
      const counted = [
        { row: 62, cells: ['Mixer MIX-1', 'MIX-1', '', 'Mixers', '1', '12.5', '5', 'Stand mixer', '', ''] }, // falls low
        { row: 63, cells: ['Mixer MIX-2', 'MIX-2', '', 'Mixers', '9', '12.5', '5', 'Stand mixer', '', ''] }, // recovers
        ...Array.from({ length: 20 }, (_, i) => createRow(64 + i, i, 'MIXD')),
      ];
      // An edit (ItemUpdated) beside creations.
      const edited = [
        {
          row: 84,
          cells: ['Mixer MIX-3 Pro', 'MIX-3', fixtureEan(7_000_002), 'Blenders', '8', '14', '2', 'Bigger bowl', '', ''],
        },
        ...Array.from({ length: 10 }, (_, i) => createRow(85 + i, i, 'MIXE')),
      ];
      const importId = randomUUID();
      const categories = await post(manager, '/api/inventory/import/categories', {
        importId,
        fileName: 'mixed.csv',
        names: ['Blenders', 'Mixers'],
      });
      expect(categories.body.categories.map((c: any) => [c.name, c.created])).toEqual([
        ['Blenders', true],
        ['Mixers', false],
      ]);
      const commit = async (rows: ImportRow[]) => {
        const res = await post(manager, '/api/inventory/import/commit', {
          importId,
          fileName: 'mixed.csv',
          columns,
          rows,
        });
        expect(res.status).toBe(200);
        return tally(res.body.results);
      };
      expect(await commit(creations)).toEqual({ created: 60 });
      expect(await commit(counted)).toEqual({ created: 20, updated: 2 });
      expect(await commit(edited)).toEqual({ created: 10, updated: 1 });

      const items = await sql<{
        sku: string;
        quantity: number;
        category_name: string;
        barcode: string | null;
        version: number;
      }>`
      select sku, quantity, category_name, barcode, version from items where sku like 'MIX%' order by sku`.execute(db);
      expect(items.rows).toHaveLength(93);
      expect(items.rows.find((r) => r.sku === 'MIX-3')).toMatchObject({
        category_name: 'Blenders',
        barcode: fixtureEan(7_000_002),
      });
      // A created low item: its crossing (ItemWentLow, version 2) is folded into its creation.
      const low = await sql<{ version: number; low: boolean; episodes: number }>`select i.version, d.low,
        (select count(*)::int from low_stock_episodes l where l.item_id = i.id and l.ended_at is null) as episodes
      from items i join dashboard_items d on d.item_id = i.id where i.sku = 'MIXC-1'`.execute(db);
      expect(low.rows[0]).toEqual({ version: 2, low: true, episodes: 1 });
      const lows = await sql<{
        n: number;
      }>`select count(*)::int as n from items where sku like 'MIXC-%' and quantity <= threshold`.execute(db);
      expect(lows.rows[0]!.n).toBeGreaterThan(0);

      expect(await verifyProjections(server.store.store)).toEqual([]);
      // The search dictionary (not a replayed table): exactly the words of every item text written.
      const words = async (query: string) =>
        (await sql<{ word: string }>`${sql.raw(query)}`.execute(db)).rows.map((r) => r.word);
      const written = await words(`select distinct w as word from events e,
        regexp_split_to_table(lower(concat_ws(' ', e.data ->> 'name', e.data ->> 'description', e.data ->> 'sku', e.data ->> 'barcode',
          e.data -> 'changes' -> 'name' ->> 'to', e.data -> 'changes' -> 'description' ->> 'to',
          e.data -> 'changes' -> 'sku' ->> 'to', e.data -> 'changes' -> 'barcode' ->> 'to')), '[^[:alpha:]]+') w
      where e.type in ('ItemCreated', 'ItemUpdated', 'CategoryCreated', 'CategoryUpdated') and length(w) between 3 and 40 order by 1`);
      expect(await words('select word from search_words order by 1')).toEqual(written);
      expect(written).toContain('ölmühle');
    }, 300_000);

    // A re-import that updates items by SKU: edits, counts and crossings of existing items, in
    // every order a row makes them, beside creations, then a revert of one row (two commands on
    // one stream in one append). No handler runs for them: every projection's set-based form
    // covers the batch, and the tables equal a replay through the handlers.
    it('updates existing items in one statement, leaving projections equal to a replay', async () => {
      const db = server.store.database.db;
      const calls: string[] = [];
      const wrapped: Array<() => void> = [];
      for (const projection of projections) {
        for (const type of ['ItemUpdated', 'StockAdjusted', 'ItemWentLow', 'ItemRecovered']) {
          const handler = projection.handlers[type];
          if (!handler) continue;
          projection.handlers[type] = (event, trx) => (calls.push(`${projection.name} ${type}`), handler(event, trx));
          wrapped.push(() => (projection.handlers[type] = handler));
        }
      }
      try {
        const category = async (name: string) => (await post(manager, '/api/categories', { name })).body.id as string;
        const [lamps, solo] = [await category('Lamps'), await category('Solo lamps')];
        await category('Shades'); // no items yet: no dashboard row until one moves in
        const made = [
          { sku: 'L-1', name: 'Desk lamp', quantity: 10, price: 20, threshold: 2, category_id: lamps },
          { sku: 'L-2', name: 'Floor lamp', quantity: 3, price: 50, threshold: 5, category_id: lamps }, // low
          {
            sku: 'L-3',
            name: 'Wall lamp',
            quantity: 8,
            price: 12.5,
            threshold: 1,
            category_id: lamps,
            barcode: fixtureEan(8_000_001),
          },
          { sku: 'L-4', name: 'Lava lamp', quantity: 1, price: 30, threshold: 0, category_id: solo }, // alone in its category
          {
            sku: 'L-5',
            name: 'Torch',
            quantity: 4,
            price: 9.99,
            threshold: 1,
            category_id: lamps,
            description: 'Pocket torch',
          },
        ];
        for (const item of made) expect((await post(manager, '/api/inventory', item)).status).toBe(201);
        const columns = ['name', 'sku', 'barcode', 'category', 'quantity', 'price', 'threshold', 'description'];
        const rows: ImportRow[] = [
          // A new name, price and barcode, and a count that takes it low: ItemUpdated, StockAdjusted, ItemWentLow.
          { row: 2, cells: ['Desk lamp LED', 'L-1', fixtureEan(8_000_002), 'Lamps', '1', '22.50', '2', ''] },
          // A lower threshold: ItemUpdated, then ItemRecovered (cleared by the threshold).
          { row: 3, cells: ['Floor lamp', 'L-2', '', 'Lamps', '3', '50', '2', ''] },
          // A new barcode and a move into a category with no items yet.
          { row: 4, cells: ['Wall lamp', 'L-3', fixtureEan(8_000_003), 'Shades', '8', '12.5', '1', ''] },
          // A move that empties its category, at a new price, with a count.
          { row: 5, cells: ['Lava lamp', 'L-4', '', 'Lamps', '6', '35', '0', ''] },
          // A count to 0 (low) beside a new description: StockAdjusted after ItemUpdated.
          { row: 6, cells: ['Torch', 'L-5', '', 'Lamps', '0', '9.99', '1', 'Pocket torch, rechargeable'] },
          ...Array.from({ length: 5 }, (_, i) => ({
            row: 7 + i,
            cells: [`Lamp bulb ${i}`, `LB-${i}`, '', 'Lamps', String(i), '3', '2', 'Spare bulb'],
          })),
        ];
        const importId = randomUUID();
        calls.length = 0;
        const res = await post(manager, '/api/inventory/import/commit', {
          importId,
          fileName: 'lamps.csv',
          columns,
          rows,
        });
        expect(res.status).toBe(200);
        expect(tally(res.body.results)).toEqual({ updated: 5, created: 5 });
        expect(calls).toEqual([]); // one statement: no projection fell back to its handlers

        // What a user sees of it: the stock movement at the new price, the log under the new name.
        const item = async (sku: string) =>
          (await sql<any>`select * from items where sku = ${sku}`.execute(db)).rows[0];
        const l1 = await item('L-1');
        expect(l1).toMatchObject({ name: 'Desk lamp LED', quantity: 1, barcode: fixtureEan(8_000_002) });
        const movement = await sql<{
          unit_price: string;
        }>`select unit_price::text from stock_movements where item_id = ${l1.id}
        order by created_at desc limit 1`.execute(db);
        expect(Number(movement.rows[0]!.unit_price)).toBe(22.5);
        const log = await server.request('GET', `/api/activity?limit=40`, { token: manager.idToken });
        const forL1 = log.body.entries.filter((e: any) => e.resourceId === l1.id).map((e: any) => e.details);
        expect(forL1).toEqual([
          '-9 (count) Desk lamp LED, by Mia Manager (Imported from lamps.csv)',
          `Edited Desk lamp LED: Name Desk lamp → Desk lamp LED, Price $20.00 → $22.50, Barcode (none) → ${fixtureEan(8_000_002)}, by Mia Manager (Imported from lamps.csv)`,
          'Created Desk lamp in Lamps: 10 in stock, price $20.00, threshold 2, by Mia Manager',
        ]);
        const l3 = await item('L-3');
        expect(log.body.entries.find((e: any) => e.resourceId === l3.id).details).toBe(
          `Edited Wall lamp: Category Lamps → Shades, Barcode ${fixtureEan(8_000_001)} → ${fixtureEan(8_000_003)}, by Mia Manager (Imported from lamps.csv)`,
        );
        const stock = await sql<{ name: string; item_count: number }>`select c.name, s.item_count from categories c
        left join category_stock s on s.category_id = c.id where c.name in ('Lamps', 'Solo lamps', 'Shades') order by c.name`.execute(
          db,
        );
        expect(stock.rows).toEqual([
          { name: 'Lamps', item_count: 9 },
          { name: 'Shades', item_count: 1 },
          { name: 'Solo lamps', item_count: null },
        ]);
        expect(await verifyProjections(server.store.store)).toEqual([]);

        // Undo row 2 (its edit and its count): the revert appends two commands on L-1's stream at once.
        const edit = await sql<{ event_id: string }>`select event_id::text from events
        where stream_id = ${`item-${l1.id}`} and type = 'ItemUpdated' and metadata ->> 'correlationId' = ${importId}`.execute(
          db,
        );
        calls.length = 0;
        const reverted = await post(manager, `/api/events/${edit.rows[0]!.event_id}/revert`, { reason: 'Wrong file' });
        expect(reverted.status, JSON.stringify(reverted.body)).toBe(201);
        expect(calls).toEqual([]);
        expect(await item('L-1')).toMatchObject({ name: 'Desk lamp', quantity: 10, barcode: null });
        expect(await verifyProjections(server.store.store)).toEqual([]);
      } finally {
        for (const restore of wrapped) restore();
      }
    }, 120_000);

    it('imports stock at the site and location each row names, rejects unknown places, and exports by location', async () => {
      // A category of its own: the big file's test counts the items of "tools".
      expect((await post(manager, '/api/categories', { name: 'Hand tools' })).status).toBe(201);
      const site = await post(manager, '/api/sites', {
        name: `Warehouse ${backend.name}`,
        code: 'WH',
        time_zone: 'UTC',
      });
      expect(site.status).toBe(201);
      for (const [siteId, name, code] of [
        [site.body.id, 'Bay 7', 'BAY7'],
        [MAIN_SITE_ID, 'Back room', 'BR'],
      ])
        expect((await post(manager, '/api/locations', { site_id: siteId, name, code })).status).toBe(201);
      const text = [
        'Name,SKU,Category,Price,Site,Location,Quantity',
        'Plane,PL-1,Hand tools,9.5,MAIN,br,5', // codes, any case
        `Plane,PL-1,Hand tools,9.5,Warehouse ${backend.name},Bay 7,7`, // names
        'Plane,PL-1,Hand tools,9.5,Main store,,4', // a site alone: its default location
        'Saw,PL-2,Hand tools,12,Nowhere,,3',
        'Saw,PL-2,Hand tools,12,MAIN,Attic,3',
        'Plane,PL-1,Hand tools,9.5,MAIN,BR,6',
      ].join('\n');
      const { columns, rows } = prepare(new TextEncoder().encode(text));
      expect(columns).toEqual(['name', 'sku', 'category', 'price', 'site', 'location', 'quantity']);
      const dry = await post(manager, '/api/inventory/import/dry-run', { fileName: 'places.csv', columns, rows });
      expect(dry.body).toMatchObject({ create: 1, update: 2 });
      expect(dry.body.problems).toEqual([
        { row: 5, column: 'site', message: `Site "Nowhere" does not exist: use a site's code or name` },
        { row: 6, column: 'location', message: 'Location "Attic" does not exist at Main store' },
        {
          row: 7,
          column: 'sku',
          message: 'SKU PL-1 at Back room is also on row 2: a file can name an item once per location',
        },
      ]);
      const results = await commitAll(randomUUID(), 'places.csv', columns, rows);
      expect(tally(results)).toEqual({ created: 1, updated: 2, rejected: 3 });
      const plane = (await server.request('GET', '/api/inventory/search?q=PL-1', { token: manager.idToken })).body[0];
      const levels = async () =>
        Object.fromEntries(
          (
            await server.request('GET', `/api/inventory/${plane.id}/locations`, { token: manager.idToken })
          ).body.locations.map((l: { locationName: string; quantity: number }) => [l.locationName, l.quantity]),
        );
      expect(await levels()).toEqual({ 'Back room': 5, 'Bay 7': 7, 'Main location': 4 });

      // A count of the back room alone: the other locations keep theirs.
      const recount = prepare(new TextEncoder().encode('SKU,Location,Quantity\nPL-1,BR,2\n'));
      expect(tally(await commitAll(randomUUID(), 'recount.csv', recount.columns, recount.rows))).toEqual({
        updated: 1,
      });
      expect(await levels()).toEqual({ 'Back room': 2, 'Bay 7': 7, 'Main location': 4 });

      // Exported by location: a row per location, with the codes; filtered by site: that site's rows.
      const csv = async (query: string) =>
        String(
          (await server.request('GET', `/api/inventory/export.csv?q=PL-&${query}`, { token: manager.idToken })).body,
        )
          .trim()
          .split(/\r?\n/);
      expect(await csv('byLocation=true')).toEqual([
        'name,sku,barcode,category,site,location,quantity,price,threshold,description,expiry_date,image_url,currency',
        '"Plane","PL-1","","Hand tools","MAIN","BR",2,9.5,0,"","","","USD"',
        '"Plane","PL-1","","Hand tools","MAIN","MAIN",4,9.5,0,"","","","USD"',
        '"Plane","PL-1","","Hand tools","WH","BAY7",7,9.5,0,"","","","USD"',
      ]);
      expect((await csv(`siteId=${site.body.id}`)).slice(1)).toEqual([
        '"Plane","PL-1","","Hand tools","WH","BAY7",7,9.5,0,"","","","USD"',
      ]);
      // Without a place, the export keeps its columns and the item's total.
      expect(await csv('')).toEqual([
        'name,sku,barcode,category,quantity,price,threshold,description,expiry_date,image_url,currency',
        '"Plane","PL-1","","Hand tools",13,9.5,0,"","","","USD"',
      ]);
      expect(await verifyProjections(server.store.store)).toEqual([]);
    }, 120_000);

    it(`imports ${backend.rows.toLocaleString('en')} rows: the dry run lists exactly the 35 bad rows, the rest commit, a second import changes nothing`, async () => {
      const { parsed, columns, rows } = prepare(new TextEncoder().encode(file.text));
      expect(parsed.header).toHaveLength(8);
      expect(columns).toEqual(['name', 'sku', 'barcode', 'category', 'quantity', 'price', 'threshold', 'description']);

      const body = { fileName, columns, rows };
      expect((await post(staff, '/api/inventory/import/dry-run', body)).status).toBe(403);
      const dry = await post(manager, '/api/inventory/import/dry-run', body);
      expect(dry.status).toBe(200);
      const expected = [...file.bad.entries()].map(([row, kind]) => ({ row, column: COLUMN_OF_KIND[kind] }));
      expect(dry.body.problems.map((p: any) => ({ row: p.row, column: p.column }))).toEqual(expected);
      const messages = new Map<number, string>(dry.body.problems.map((p: any) => [p.row, p.message]));
      const rowOf = (kind: string) => expected.find((e) => file.bad.get(e.row) === kind)!.row;
      expect(messages.get(rowOf('missing name'))).toBe('name is required');
      expect(messages.get(rowOf('bad price'))).toBe('price must be number');
      expect(messages.get(rowOf('duplicate sku'))).toMatch(/^SKU SKU-\d+ is also on row \d+/);
      expect(messages.get(rowOf('unterminated quote'))).toMatch(/Unterminated quote/);
      expect(messages.get(rowOf('bad check digit'))).toMatch(/check digit is wrong \(EAN-13, expected \d\)/);
      expect(messages.get(rowOf('formula'))).toMatch(/starts with "=": a spreadsheet formula/);
      expect(file.bad.size).toBe(35);
      expect(dry.body).toMatchObject({
        rows: backend.rows,
        create: good - 2,
        update: 2,
        unchanged: 0,
        newCategories: ['Garden', 'Kitchen'],
      });

      // Nothing was written by the dry run; the user confirms the new categories.
      expect(
        (await server.request('GET', `/api/inventory/search?q=${fixtureSku(100)}`, { token: manager.idToken })).body,
      ).toEqual([]);
      const importId = randomUUID();
      const categories = await post(manager, '/api/inventory/import/categories', {
        importId,
        fileName,
        names: dry.body.newCategories,
      });
      expect(categories.status).toBe(200);
      expect(categories.body.categories.map((c: any) => [c.name, c.created])).toEqual([
        ['Garden', true],
        ['Kitchen', true],
      ]);

      const bad = new Set(dry.body.problems.map((p: any) => p.row));
      const started = performance.now();
      const results = await commitAll(
        importId,
        fileName,
        columns,
        rows.filter((r) => !bad.has(r.row)),
      );
      console.info(`${backend.name}: ${good} rows committed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      expect(tally(results)).toEqual({ created: good - 2, updated: 2 });

      const list = await server.request('GET', '/api/categories', { token: manager.idToken });
      const counts = Object.fromEntries(list.body.map((c: any) => [c.name, c.itemCount]));
      expect(counts.tools + counts.Garden + counts.Kitchen).toBe(good);

      // An imported item: its fields, its history and the activity log say where it came from.
      expect(file.bad.has(106 + 2)).toBe(false); // data row 106 is a good one in both sizes
      const found = await server.request('GET', `/api/inventory/search?q=${fixtureSku(106)}`, {
        token: manager.idToken,
      });
      const item = found.body.find((i: any) => i.sku === fixtureSku(106));
      expect(item).toMatchObject({
        name: 'Widget 106',
        category: 'Garden',
        quantity: 6,
        price: 6.5,
        threshold: 5,
        description: 'Part 106, boxed',
      });
      expect(item.barcode).toMatch(/^20\d{11}$/);
      const history = await server.request('GET', `/api/inventory/${item.id}/history`, { token: manager.idToken });
      expect(history.body[0]).toMatchObject({
        type: 'ItemCreated',
        note: 'Imported from stock.csv',
        actor: { name: 'Mia Manager' },
      });
      const updated = (
        await server.request('GET', `/api/inventory/search?q=${fixtureSku(30)}`, { token: manager.idToken })
      ).body[0];
      expect(updated).toMatchObject({ price: 30.5, quantity: 30 });
      const activity = await server.request('GET', '/api/activity?limit=3', { token: manager.idToken });
      expect(activity.body.entries[0].details).toMatch(
        // " at Main location": an earlier test of this store made locations of its own.
        /^Created Widget \d+ in .+: \d+ in stock( at Main location)?, price \$\d+\.\d\d, threshold \d+, by Mia Manager \(Imported from stock\.csv\)$/,
      );
      const imported = await sql<{
        n: number;
      }>`select count(*)::int as n from events where metadata ->> 'correlationId' = ${importId}`.execute(
        server.store.database.db,
      );
      expect(imported.rows[0]!.n).toBeGreaterThanOrEqual(good + 2);

      // The same file again: every row is as the store has it.
      const before = await countEvents();
      const again = await post(manager, '/api/inventory/import/dry-run', body);
      expect(again.body).toMatchObject({ create: 0, update: 0, unchanged: good, newCategories: [] });
      const second = await commitAll(
        randomUUID(),
        fileName,
        columns,
        rows.filter((r) => !bad.has(r.row)),
      );
      expect(tally(second)).toEqual({ unchanged: good });
      expect(await countEvents()).toBe(before);

      // A replay of the whole store: cheap for 600 rows, most of a minute for 10,000 (the
      // set-based forms are checked against a replay on a small store in the test before).
      if (backend.rows <= 1_000) expect(await verifyProjections(server.store.store)).toEqual([]);
    }, 300_000);

    it('resumes an import cut off in the middle of its commit without doubling anything', async () => {
      const small = stockFile(1_100, { badRows: 0, skuPrefix: 'R', barcodeFrom: 1_000_000 });
      const { columns, rows } = prepare(new TextEncoder().encode(small.text));
      const importId = randomUUID();
      await post(manager, '/api/inventory/import/categories', {
        importId,
        fileName: 'resume.csv',
        names: small.categories,
      });
      const batches = batchesOf(rows, IMPORT_BATCH_ROWS);
      // Batch 2 is sent twice at once (a retry racing the original), then the tab closes.
      await post(manager, '/api/inventory/import/commit', {
        importId,
        fileName: 'resume.csv',
        columns,
        rows: batches[0],
      });
      const twice = await Promise.all(
        [1, 2].map(() =>
          post(manager, '/api/inventory/import/commit', {
            importId,
            fileName: 'resume.csv',
            columns,
            rows: batches[1],
          }),
        ),
      );
      expect(twice.map((r) => r.status)).toEqual([200, 200]);
      // Reopened: the saved state said batch 2 was in flight, so it is sent again with the rest.
      const resumed = await commitAll(importId, 'resume.csv', columns, batches.slice(1).flat());
      expect(tally(resumed)).toEqual({ created: 600 });
      const items = await sql<{
        n: number;
        skus: number;
      }>`select count(*)::int as n, count(distinct lower(sku))::int as skus
      from items where sku like 'RSKU-%'`.execute(server.store.database.db);
      expect(items.rows[0]).toEqual({ n: 1_100, skus: 1_100 });
      const created = await sql<{ n: number }>`select count(*)::int as n from events
      where type = 'ItemCreated' and metadata ->> 'correlationId' = ${importId}`.execute(server.store.database.db);
      expect(created.rows[0]!.n).toBe(1_100);
    }, 120_000);

    it('reads semicolon-delimited Windows-1252 and BOM UTF-8 files with their accents', async () => {
      const ansi =
        'Nom;Référence;Catégorie;Quantité;Prix unitaire\r\nCafé crème;ACC-1;Épicerie;12;4,50\r\nPâte à crêpes;ACC-2;Épicerie;3;2,95\r\n';
      const cp1252 = Uint8Array.from(Buffer.from(ansi, 'latin1'));
      expect(decodeFile(cp1252).encoding).toBe('windows-1252');
      const bom = new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...new TextEncoder().encode('Name,SKU,Category,Stock,Price\nCrème brûlée torch,ACC-3,Épicerie,2,19.90\n'),
      ]);
      expect(decodeFile(bom).encoding).toBe('utf-8-bom');
      for (const [name, bytes] of [
        ['épicerie.csv', cp1252],
        ['bom.csv', bom],
      ] as const) {
        const importId = randomUUID(); // one import per file: its rows' keys are its own
        const { parsed, columns, rows } = prepare(bytes);
        expect(columns).toEqual(['name', 'sku', 'category', 'quantity', 'price']);
        expect(parsed.header[0]).not.toMatch(/^\uFEFF/);
        const dry = await post(manager, '/api/inventory/import/dry-run', { fileName: name, columns, rows });
        expect(dry.body.problems).toEqual([]);
        if (dry.body.newCategories.length) {
          await post(manager, '/api/inventory/import/categories', {
            importId,
            fileName: name,
            names: dry.body.newCategories,
          });
        }
        expect(tally(await commitAll(importId, name, columns, rows))).toEqual({ created: rows.length });
      }
      const stored = await sql<{ sku: string; name: string; category_name: string; quantity: number; price: string }>`
      select sku, name, category_name, quantity, price::text as price from items where sku like 'ACC-%'`.execute(
        server.store.database.db,
      );
      const byId = Object.fromEntries(
        stored.rows.map((r) => [r.sku, { ...r, category: r.category_name, price: Number(r.price) }]),
      );
      expect(byId['ACC-1']).toMatchObject({ name: 'Café crème', category: 'Épicerie', quantity: 12, price: 4.5 });
      expect(byId['ACC-2']).toMatchObject({ name: 'Pâte à crêpes', price: 2.95 });
      expect(byId['ACC-3']).toMatchObject({ name: 'Crème brûlée torch', price: 19.9 });
    });

    it('checks bodies and permissions', async () => {
      const importId = randomUUID();
      const commit = (account: TestAccount, body: unknown) => post(account, '/api/inventory/import/commit', body);
      const good = { importId, fileName: 'x.csv', columns: ['name', 'sku'], rows: [{ row: 2, cells: ['A', 'B'] }] };
      expect(await commit(staff, good)).toMatchObject({ status: 403 });
      expect(await commit(manager, { ...good, extra: 1 })).toMatchObject({
        status: 400,
        body: { error: 'Unknown field: extra' },
      });
      expect((await commit(manager, { ...good, columns: ['name', 'colour'] })).status).toBe(400);
      const tooMany = {
        ...good,
        rows: Array.from({ length: IMPORT_BATCH_ROWS + 1 }, (_, i) => ({ row: i + 2, cells: ['A', `B${i}`] })),
      };
      expect((await commit(manager, tooMany)).status).toBe(400);
      expect((await server.request('POST', '/api/inventory/import/dry-run', { body: good })).status).toBe(401);
      // A row naming a category nobody confirmed is refused at commit, not created on the side.
      const res = await commit(manager, {
        ...good,
        columns: ['name', 'sku', 'category', 'price'],
        rows: [{ row: 2, cells: ['A', 'NEW-1', 'Unconfirmed', '1'] }],
      });
      expect(res.body.results).toEqual([
        { row: 2, outcome: 'rejected', column: 'category', message: 'Category Unconfirmed does not exist' },
      ]);
    });
  },
);
