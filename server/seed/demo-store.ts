// The demo store, written through the same services (so as events) as any user's
// writes: categories Electronics, Clothing, Food & Beverages and three items with
// thresholds 5, 10 and 5, two of them already low so alerts have something to show. Each
// carries a real EAN-13 (check digit right), so scanning and labels can be tried at once.
import type { EventStore } from '../eventstore/event-store.js';
import type { EventMetadata } from '../eventstore/types.js';
import { CategoryService } from '../categories/category-service.js';
import { ItemQueries } from '../inventory/item-queries.js';
import { siteOfCaller } from '../inventory/places-sql.js';
import { createItemCommand } from '../inventory/item-commands.js';
import { ItemService } from '../inventory/item-service.js';
import type { DemoLogin } from './demo-accounts.js';

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function seedDemoStore(store: EventStore, logins: DemoLogin[]): Promise<void> {
  const manager = logins.find((l) => l.role === 'manager')!;
  const meta: EventMetadata = { actor: { uid: manager.uid, name: manager.displayName }, correlationId: 'demo-seed' };
  const categories = new CategoryService(store.db, store);
  const items = new ItemService(store, new ItemQueries(store.db, store));

  const electronics = await categories.create(
    { name: 'Electronics', description: 'Devices, cables and accessories' },
    meta,
  );
  const clothing = await categories.create({ name: 'Clothing', description: 'Apparel and uniforms' }, meta);
  const food = await categories.create({ name: 'Food & Beverages', description: 'Snacks, drinks and groceries' }, meta);

  await items.create(
    createItemCommand(
      {
        name: 'Wireless Mouse',
        description: 'Ergonomic 2.4 GHz wireless mouse with USB receiver',
        sku: 'EL-MOUSE-001',
        barcode: '5901234123457',
        category_id: electronics.id,
        quantity: 3,
        price: 24.99,
        threshold: 5,
      },
      siteOfCaller(null),
    ),
    meta,
  );
  await items.create(
    createItemCommand(
      {
        name: 'Cotton T-Shirt',
        description: 'Crew-neck t-shirt, 100% cotton, assorted sizes',
        sku: 'CL-TSHIRT-001',
        barcode: '4001234567891',
        category_id: clothing.id,
        quantity: 40,
        price: 15,
        threshold: 10,
      },
      siteOfCaller(null),
    ),
    meta,
  );
  await items.create(
    createItemCommand(
      {
        name: 'Organic Coffee Beans',
        description: 'Whole-bean medium roast, 1 kg bag',
        sku: 'FB-COFFEE-001',
        barcode: '8712345678906',
        category_id: food.id,
        quantity: 4,
        price: 18.5,
        threshold: 5,
        expiry_date: inDays(12),
      },
      siteOfCaller(null),
    ),
    meta,
  );
}
