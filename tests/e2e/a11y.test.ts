// Accessibility: axe-core (WCAG 2 A and AA rules) on every screen of the app, the inventory
// screens and the report and account screens alike, in the light and the dark theme, with the
// main dialogs open too. A serious or critical violation fails the test and is listed with
// where it is. Each screen is opened once: all rules run in the light theme, then the device
// switches to dark (no theme is stored, so the app follows it live) and the rules that depend
// on colour run again. The theme changes only colours, so the structural rules would find the
// same things twice.
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { apiAccount } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, daysFromNow, openPage, signIn } from './shared-steps.js';

interface Screen {
  name: string;
  /** Opens the screen and waits until its content is there. */
  open: (page: Page) => Promise<void>;
}

const BLOCKING = new Set(['serious', 'critical']);

/** The WCAG 2 A/AA rules that look at colour: the ones a theme can break. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function violations(page: Page, rules: 'all' | 'colour' = 'all'): Promise<string[]> {
  // Let entrance animations and the theme's colour transitions finish: a half-faded element reads as low contrast.
  await page.waitForTimeout(400);
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  const results = await (rules === 'all' ? builder : builder.withRules(COLOUR_RULES)).analyze();
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

describe('accessibility (axe-core, WCAG 2 A/AA)', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let category: Category;
  let item: Item;
  let transfer: { id: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Alex Access');
    staff = await apiAccount(server, 'Sky Staff');
    await apiAccount(server, 'Robin Request', 'manager');
    category = await addCategory(server, manager.idToken, 'Pantry');
    item = await addItem(server, manager.idToken, category, {
      name: 'Olive Oil',
      quantity: 3,
      threshold: 4,
      price: 8.5,
      expiry_date: daysFromNow(9),
    });
    const beans = await addItem(server, manager.idToken, category, {
      name: 'Coffee Beans',
      quantity: 30,
      threshold: 5,
      price: 12,
    });
    await adjust(server, staff.idToken, beans, -4, 'sale');
    // A warehouse with a transfer of 2 Coffee Beans on its way to the main store.
    const warehouse = await server.api<{ id: string }>('POST', '/sites', manager.idToken, {
      name: 'Harbour warehouse',
      code: 'HW',
      time_zone: 'Europe/Paris',
    });
    const dock = await server.api<{ id: string }>('POST', '/locations', manager.idToken, {
      site_id: warehouse.id,
      name: 'Dock',
      code: 'DOCK',
    });
    await server.api('POST', `/inventory/${beans.id}/adjust`, manager.idToken, {
      delta: 6,
      reason: 'restock',
      locationId: dock.id,
    });
    transfer = await server.api<{ id: string }>('POST', '/transfers', manager.idToken, {
      fromSiteId: warehouse.id,
      toSiteId: MAIN_SITE_ID,
      lines: [{ itemId: beans.id, fromLocationId: dock.id, quantity: 2 }],
    });
    await server.api('POST', `/transfers/${transfer.id}/ship`, manager.idToken, {});
    await server.api('POST', '/roles', manager.idToken, {
      name: 'Shelf Viewer',
      description: 'Looks only',
      permissions: ['inventory:view', 'reports:view'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const visible = (page: Page, text: string) => page.getByText(text).first().waitFor({ timeout: 15_000 });

  const publicScreens: Screen[] = [
    { name: 'landing', open: async (p) => (await p.goto('/'), visible(p, 'Product Inventory, Simplified')) },
    { name: 'login', open: async (p) => (await p.goto('/login'), visible(p, 'Sign in with Google')) },
    { name: 'register', open: async (p) => (await p.goto('/register'), visible(p, 'Create Account')) },
    { name: 'not found', open: async (p) => (await p.goto('/no-such-page'), visible(p, 'Page Not Found')) },
  ];

  const managerScreens: Screen[] = [
    {
      name: 'dashboard',
      open: async (p) => (await p.goto('/dashboard'), visible(p, 'Top Selling Items').then(() => visible(p, '4 sold'))),
    },
    {
      name: 'inventory',
      open: async (p) => (await p.goto('/inventory'), p.getByRole('link', { name: /Pantry/ }).waitFor()),
    },
    {
      name: 'category',
      open: async (p) => (await p.goto(`/inventory/category/${category.id}`), visible(p, '3 in stock')),
    },
    { name: 'item detail', open: async (p) => (await p.goto(`/inventory/${item.id}`), visible(p, 'Low Stock Alert')) },
    {
      name: 'edit item',
      open: async (p) => (await p.goto(`/inventory/${item.id}/edit`), p.getByLabel('Name', { exact: true }).waitFor()),
    },
    { name: 'add item page', open: async (p) => (await p.goto('/inventory/add'), visible(p, 'Basic Information')) },
    {
      name: 'add item wizard',
      open: async (p) => {
        await p.goto('/inventory');
        await p.getByRole('button', { name: 'Add Item' }).click();
        await p.getByRole('dialog', { name: 'Add Item' }).waitFor();
      },
    },
    { name: 'alerts', open: async (p) => (await p.goto('/alerts'), p.getByTestId('alert-row').first().waitFor()) },
    {
      name: 'alert settings',
      open: async (p) => {
        await p.goto('/alerts');
        await p.getByRole('button', { name: 'Alert Settings' }).click();
        await p.getByRole('switch', { name: 'Browser notifications' }).waitFor();
      },
    },
    {
      name: 'activity',
      open: async (p) => (await p.goto('/activity'), p.getByTestId('activity-row').first().waitFor()),
    },
    { name: 'users', open: async (p) => (await p.goto('/users'), p.getByTestId('pending-request').waitFor()) },
    {
      name: 'add user',
      open: async (p) => {
        await p.goto('/users');
        await p.getByRole('button', { name: 'Add User' }).click();
        await p.getByRole('dialog', { name: 'Add User' }).waitFor();
      },
    },
    {
      name: 'roles',
      open: async (p) => (
        await p.goto('/roles'),
        p.getByTestId('role-card').filter({ hasText: 'Shelf Viewer' }).waitFor()
      ),
    },
    {
      name: 'add role',
      open: async (p) => {
        await p.goto('/roles');
        await p.getByRole('button', { name: 'Add Role' }).click();
        await p.getByRole('dialog', { name: 'Add Role' }).waitFor();
      },
    },
    { name: 'settings', open: async (p) => (await p.goto('/settings'), p.getByLabel('Store Name').waitFor()) },
    {
      name: 'settings: notifications',
      open: async (p) => {
        await p.goto('/settings');
        await p.getByRole('tab', { name: 'Notifications' }).click();
        await p.getByRole('switch', { name: 'Email Notifications' }).waitFor();
      },
    },
    {
      name: 'settings: permissions',
      open: async (p) => {
        await p.goto('/settings');
        await p.getByRole('tab', { name: 'Permissions' }).click();
        await p.getByRole('table', { name: 'Permissions of each role' }).waitFor();
      },
    },
    {
      name: 'settings: appearance',
      open: async (p) => {
        await p.goto('/settings');
        await p.getByRole('tab', { name: 'Appearance' }).click();
        await p.getByRole('radio', { name: /System/ }).waitFor();
      },
    },
    {
      name: 'sites and locations',
      open: async (p) => (await p.goto('/settings/places'), p.getByTestId('location-row').first().waitFor()),
    },
    {
      name: 'add site',
      open: async (p) => {
        await p.goto('/settings/places');
        await p.getByRole('button', { name: 'Add Site' }).click();
        await p.getByRole('dialog', { name: 'Add Site' }).waitFor();
      },
    },
    { name: 'transfers', open: async (p) => (await p.goto('/transfers'), visible(p, '2 units in transit')) },
    {
      name: 'transfer in transit',
      open: async (p) => (await p.goto(`/transfers/${transfer.id}`), visible(p, '2 units in transit')),
    },
    {
      name: 'new transfer',
      open: async (p) => (await p.goto('/transfers/new'), p.getByRole('button', { name: 'Save draft' }).waitFor()),
    },
    { name: 'profile', open: async (p) => (await p.goto('/profile'), p.getByTestId('profile-full-name').waitFor()) },
    {
      name: 'wall display',
      open: async (p) => (await p.goto('/display'), p.getByTestId('display-alert').first().waitFor()),
    },
  ];

  const staffScreens: Screen[] = [
    { name: 'access denied', open: async (p) => (await p.goto('/users'), visible(p, 'Access Denied')) },
    {
      name: 'settings (read only)',
      open: async (p) => (
        await p.goto('/settings'),
        visible(p, 'These settings can only be modified by store managers.')
      ),
    },
  ];

  it('finds no serious or critical violation on any screen, in the light and the dark theme', async () => {
    const failures: string[] = [];
    const check = async (page: Page, screens: Screen[]) => {
      for (const screen of screens) {
        await page.emulateMedia({ colorScheme: 'light' });
        await screen.open(page);
        expect(await page.evaluate(() => document.documentElement.className)).toContain('light');
        for (const v of await violations(page)) failures.push(`${screen.name} (light): ${v}`);
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
        for (const v of await violations(page, 'colour')) failures.push(`${screen.name} (dark): ${v}`);
      }
    };

    const visitor = await openPage(browser, server);
    await check(visitor.page, publicScreens);
    await visitor.context.close();

    const admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
    await check(admin.page, managerScreens);
    await admin.context.close();

    const member = await openPage(browser, server);
    await signIn(member.page, staff.email!, staff.password!);
    await check(member.page, staffScreens);
    await member.context.close();

    expect(failures).toEqual([]);
  }, 400_000);
});
