// Screenshots of the sign-in and inventory screens (landing, login, register, inventory,
// categories, items, not-found and access-denied pages), in the light and dark theme, at
// desktop and phone width, saved to test-results/screenshots (not committed) for people to
// look at. Each shot also checks the screen rendered what it should.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { launchBrowser } from '../helpers/browser.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { apiAccount, DESKTOP, newAppContext, PHONE, screenshot, seeText, signInViaUi } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';

const PICTURES: Record<string, string> = {};

/**
 * A product picture at an https URL that the test's browser contexts answer themselves
 * (the test machine has no internet for real photos).
 */
function picture(hue: number, label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="300" viewBox="0 0 480 300">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,62%)"/><stop offset="1" stop-color="hsl(${hue + 40},70%,45%)"/></linearGradient></defs>
    <rect width="480" height="300" fill="url(#g)"/><circle cx="380" cy="70" r="90" fill="rgba(255,255,255,.15)"/>
    <text x="40" y="250" font-family="Arial" font-size="44" font-weight="700" fill="rgba(255,255,255,.9)">${label}</text></svg>`;
  const url = `https://images.stockroom.test/${label.toLowerCase().replace(/\W+/g, '-')}.svg`;
  PICTURES[url] = svg;
  return url;
}

async function servePictures(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/images\.stockroom\.test\//, (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PICTURES[route.request().url()] ?? '' }),
  );
}

describe('screenshots of every screen', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let electronics: Category;
  let headphones: Item;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Morgan Manager');
    staff = await apiAccount(server, 'Sam Staff');
    const token = manager.idToken;
    const add = (path: string, body: unknown) => server.api('POST', path, token, body);
    electronics = await add('/categories', { name: 'Electronics', description: 'Devices, cables and accessories' });
    const clothing = await add('/categories', { name: 'Clothing', description: 'Apparel and uniforms' });
    const food = await add('/categories', { name: 'Food & Beverages', description: 'Snacks, drinks and perishables' });
    headphones = await add('/inventory', {
      name: 'Wireless Headphones',
      description: 'Over-ear, noise cancelling, 30 h battery',
      sku: 'EL-2041',
      category_id: electronics.id,
      quantity: 42,
      price: 129.99,
      threshold: 10,
      image_url: picture(230, 'Headphones'),
    });
    await add('/inventory', {
      name: 'USB-C Cable 2 m',
      description: 'Braided, 100 W',
      sku: 'EL-0310',
      category_id: electronics.id,
      quantity: 4,
      price: 12.5,
      threshold: 8,
    });
    await add('/inventory', {
      name: 'Bluetooth Speaker',
      description: 'Waterproof, pocket size',
      sku: 'EL-0777',
      category_id: electronics.id,
      quantity: 15,
      price: 59,
      threshold: 10,
      image_url: picture(280, 'Speaker'),
    });
    await add('/inventory', {
      name: 'Cotton T-Shirt',
      description: 'Crew-neck, assorted sizes',
      sku: 'CL-1180',
      category_id: clothing.id,
      quantity: 40,
      price: 15,
      threshold: 10,
    });
    await add('/inventory', {
      name: 'Cold Brew Coffee',
      description: 'Ready to drink, 330 ml',
      sku: 'FB-0307',
      category_id: food.id,
      quantity: 3,
      price: 4.5,
      threshold: 5,
      expiry_date: '2030-06-30',
      image_url: picture(25, 'Cold Brew'),
    });
    await server.api('POST', `/inventory/${headphones.id}/adjust`, token, {
      delta: -2,
      reason: 'sale',
      note: 'Weekend sale',
    });
    await server.api('PUT', `/inventory/${headphones.id}`, token, { price: 119.99 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootSignedOut(page: Page, phone: boolean) {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Product Inventory, Simplified' }).waitFor();
    await screenshot(page, 'landing');
    if (phone) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Menu' }).waitFor();
      await screenshot(page, 'landing-menu');
    }
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await screenshot(page, 'login');
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    await screenshot(page, 'register');
    await page.goto('/no-such-page');
    await seeText(page, 'Page Not Found');
    await screenshot(page, 'not-found');
  }

  async function shootManager(page: Page) {
    // The loading screen, caught by holding the categories response back for a moment.
    let held = false;
    await page.route('**/api/categories', async (route) => {
      if (!held) {
        held = true;
        await new Promise((r) => setTimeout(r, 1500));
      }
      await route.continue();
    });
    await page.goto('/inventory');
    await seeText(page, 'Loading inventory...');
    await screenshot(page, 'loading');
    await seeText(page, 'Electronics');
    await screenshot(page, 'inventory');

    await page.getByRole('searchbox', { name: 'Search items' }).fill('coffee');
    await seeText(page, 'Cold Brew Coffee');
    await screenshot(page, 'inventory-search');
    await page.getByRole('searchbox', { name: 'Search items' }).fill('');

    await page.getByRole('button', { name: 'Add Category' }).first().click();
    await page.getByRole('dialog', { name: 'Add Category' }).waitFor();
    await screenshot(page, 'add-category');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Add Item' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Item' });
    await wizard.waitFor();
    await screenshot(page, 'add-item-wizard-1');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Submit' }).click();
    await seeText(wizard, 'Please fill in all required fields');
    await screenshot(page, 'add-item-wizard-error');
    await page.keyboard.press('Escape');

    await page.goto(`/inventory/category/${electronics.id}`);
    await seeText(page, '40 in stock');
    await screenshot(page, 'category');
    await page.getByRole('button', { name: 'Delete USB-C Cable 2 m' }).click();
    await page.getByRole('dialog', { name: 'Delete item' }).waitFor();
    await screenshot(page, 'category-delete-confirm');
    await page.keyboard.press('Escape');

    await page.goto(`/inventory/${headphones.id}`);
    await page.getByRole('heading', { name: 'Wireless Headphones' }).waitFor();
    await seeText(page, 'Weekend sale');
    await screenshot(page, 'item-detail');
    await page.getByRole('button', { name: 'Adjust stock' }).click();
    await page.getByRole('dialog', { name: 'Adjust stock' }).waitFor();
    await screenshot(page, 'adjust-stock');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menu').waitFor();
    await screenshot(page, 'user-menu');
    await page.keyboard.press('Escape');

    const low = await server.api<Item[]>('GET', '/inventory/low-stock', manager.idToken);
    await page.goto(`/inventory/${low.find((i) => i.name === 'Cold Brew Coffee')!.id}`);
    await seeText(page, 'Low Stock Alert');
    await screenshot(page, 'item-detail-low');

    await page.goto(`/inventory/${headphones.id}/edit`);
    await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    await screenshot(page, 'edit-item');
    await page.getByRole('button', { name: 'Delete Item' }).click();
    await seeText(page, 'Are you sure you want to delete this item? This action cannot be undone.');
    await screenshot(page, 'edit-item-delete-confirm');
    await page.getByRole('dialog', { name: 'Delete item' }).getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/inventory/add');
    await page.getByRole('heading', { name: 'Add New Item' }).waitFor();
    await screenshot(page, 'add-item-page');

    await page.goto('/inventory/00000000-0000-0000-0000-000000000000');
    await seeText(page, 'Item Not Found');
    await screenshot(page, 'item-not-found');
    await page.goto('/inventory/category/00000000-0000-0000-0000-000000000000');
    await seeText(page, 'Category Not Found');
    await screenshot(page, 'category-not-found');
  }

  async function shootStaff(page: Page) {
    await page.goto('/users');
    await seeText(page, 'Access Denied');
    await screenshot(page, 'access-denied');
  }

  for (const theme of ['light', 'dark'] as const) {
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`${theme} theme, ${device}`, async () => {
        const context = await newAppContext(browser, server, { theme, viewport });
        await servePictures(context);
        try {
          const page = await context.newPage();
          await shootSignedOut(page, device === 'phone');
          await signInViaUi(page, manager.email!, manager.password!);
          await shootManager(page);
          const staffContext = await newAppContext(browser, server, { theme, viewport });
          const staffPage = await staffContext.newPage();
          await signInViaUi(staffPage, staff.email!, staff.password!);
          await shootStaff(staffPage);
          await staffContext.close();
        } finally {
          await context.close();
        }
      }, 120_000);
    }
  }
});
