// What a change says, on both backends: a creation, a sale with its
// note, an edit of several fields, a move to another category, the sale's revert and a price
// change after the store moved to euros read the same in GET /api/activity, the CSV export,
// the dashboard, the wall display's snapshot and the summary of each delivered webhook;
// entries keep the item's name as it was then after a rename, and prices the currency the
// store had then ($4.50 in dollars, 5,00 € once in euros for France); a guest reads the same
// sentences naming nobody; projections still match a replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { csvTextCell } from '../../shared/csv-cell.js';

describe.each(backends())('what changes say on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let receiver: Receiver;
  /** The sentences expected, by the event each entry shows. */
  const said = new Map<string, string>();
  let itemId = '';

  const call = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { token: account.idToken, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  /** The item's entries in the log, oldest first. */
  const entriesOfItem = async (account = manager) =>
    ((await call(account, 'GET', '/api/activity?limit=100')).entries as any[])
      .filter((e) => e.resourceId === itemId)
      .reverse();
  /** The event the item's stream got at this version. */
  const eventAt = async (version: number) =>
    (await call(manager, 'GET', `/api/history/change-at?streamId=item-${itemId}&version=${version}`)).eventId as string;

  beforeAll(async () => {
    server = await startTestServer(backend, { env: { WEBHOOK_POLL_MS: '200', WEBHOOK_RETRY_BASE_MS: '100' } });
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Sam Seller');
    receiver = await startReceiver();
    await call(manager, 'POST', '/api/webhooks', { url: receiver.url, eventTypes: ['*'] });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('says a creation, a sale, an edit of several fields, a move and a revert', async () => {
    const dairy = await call(manager, 'POST', '/api/categories', { name: `Dairy ${backend.name}` });
    const chilled = await call(manager, 'POST', '/api/categories', { name: `Chilled ${backend.name}` });
    const created = await call(manager, 'POST', '/api/inventory', {
      name: 'Crème fraîche 1 kg',
      sku: `CF-${backend.name}`,
      category_id: dairy.id,
      quantity: 12,
      price: 4.5,
      threshold: 5,
    });
    itemId = created.id;
    said.set(
      await eventAt(1),
      `Created Crème fraîche 1 kg in ${dairy.name}: 12 in stock, price $4.50, threshold 5, by Mona Manager`,
    );

    const sale = await call(staff, 'POST', `/api/inventory/${itemId}/adjust`, {
      delta: -5,
      reason: 'sale',
      note: 'table 4, two tubs',
    });
    const saleEvent = await eventAt(sale.version);
    said.set(saleEvent, '-5 (sale) Crème fraîche 1 kg, by Sam Seller, note: table 4, two tubs');

    const edited = await call(manager, 'PUT', `/api/inventory/${itemId}`, {
      price: 4.9,
      threshold: 8,
      description: 'Full fat',
    });
    said.set(
      await eventAt(edited.version),
      'Edited Crème fraîche 1 kg: Price $4.50 → $4.90, Threshold 5 → 8, Description (none) → “Full fat”, by Mona Manager',
    );

    const moved = await call(manager, 'PUT', `/api/inventory/${itemId}`, {
      category_id: chilled.id,
      name: 'Crème fraîche 2 kg',
    });
    said.set(
      await eventAt(moved.version),
      `Edited Crème fraîche 2 kg: Name Crème fraîche 1 kg → Crème fraîche 2 kg, Category ${dairy.name} → ${chilled.name}, by Mona Manager`,
    );

    const reverted = await call(manager, 'POST', `/api/events/${saleEvent}/revert`, {
      reason: 'rang up the wrong item',
    });
    const revertEvent = reverted.revertingEventIds[0] as string;
    // Named as it was when it was sold: the rename came after the sale.
    said.set(revertEvent, 'Reverted -5 (sale) Crème fraîche 1 kg, by Mona Manager, why: rang up the wrong item');

    // The store moves to euros, written for France: prices set from then on say so (Intl's
    // French format: a comma, and a no-break space before the sign); those set before
    // keep their dollars, as the webhooks sent then said them.
    await call(manager, 'PUT', '/api/settings', { currency: 'EUR', locale: 'fr-FR' });
    const repriced = await call(manager, 'PUT', `/api/inventory/${itemId}`, { price: 5 });
    said.set(
      await eventAt(repriced.version),
      'Edited Crème fraîche 2 kg: Price 4,90\u00a0€ → 5,00\u00a0€, by Mona Manager',
    );

    const log = await entriesOfItem();
    expect(log.map((e) => [e.eventId, e.details])).toEqual([...said]);
    const sold = log.find((e) => e.eventId === saleEvent);
    expect(sold.summary.filter((p: any) => p.role).map((p: any) => [p.role, p.text])).toEqual([
      ['delta', '-5'],
      ['subject', 'Crème fraîche 1 kg'],
      ['who', 'Sam Seller'],
      ['note', 'table 4, two tubs'],
    ]);
    expect(sold.reverted).toBe(true);

    // The item's history carries each price's own money format, for the page to write it in.
    const history = (await call(manager, 'GET', `/api/inventory/${itemId}/history`)) as any[];
    expect(history.find((h) => h.type === 'ItemCreated').money).toEqual({ currency: 'USD', locale: 'en-US' });
    expect(history.find((h) => h.version === repriced.version).money).toEqual({ currency: 'EUR', locale: 'fr-FR' });
    expect(history.find((h) => h.type === 'StockAdjusted').money).toBeUndefined();
  });

  it('says the same on the dashboard, the wall display and in the CSV export', async () => {
    const sentences = [...said.values()].reverse();
    const display = await call(staff, 'GET', '/api/dashboard/display');
    expect(display.recentActivity.filter((e: any) => e.resourceId === itemId).map((e: any) => e.details)).toEqual(
      sentences,
    );
    const dashboard = await call(staff, 'GET', '/api/dashboard');
    expect(dashboard.recentActivity.map((e: any) => e.details)).toEqual(sentences.slice(0, 5));
    const csv = await server.request('GET', '/api/activity.csv', { token: manager.idToken });
    // As its cells are written (an adjustment's "-5 …" defused as a formula, csv-cell.ts).
    for (const sentence of sentences) expect(csv.body).toContain(`,${csvTextCell(sentence)},`);
  });

  it('sends each delivered webhook with the same sentence as its summary', async () => {
    const ids = [...said.keys()];
    await receiver.waitFor(
      (r) => ids.every((id) => r.received.some((x) => x.id === id)),
      60_000,
      'the item’s webhooks',
    );
    for (const [id, sentence] of said) {
      expect(receiver.received.find((x) => x.id === id)!.payload.data.summary).toBe(sentence);
    }
    // A low-stock fact says the numbers and names nobody.
    const low = receiver.received.find((x) => x.payload.type === 'stock.low');
    expect(low?.payload.data.summary).toBe('Crème fraîche 1 kg is low on stock: 7 left, threshold 8');
  });

  it('shows a guest the same sentences, naming nobody', async () => {
    const guest = await accountWithRole(server, 'guest');
    const theirs = await entriesOfItem(guest);
    expect(theirs.map((e) => e.details)).toEqual(
      [...said.values()].map((s) => s.replace(/by (Mona Manager|Sam Seller)/, 'by Staff member')),
    );
    const display = await call(guest, 'GET', '/api/dashboard/display');
    expect(JSON.stringify(display)).not.toMatch(/Mona Manager|Sam Seller/);
  });

  it('leaves the projections as a replay of the log makes them', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
