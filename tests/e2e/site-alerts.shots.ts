// Screenshots of low stock per site in a store with a warehouse and a second shop: the wall
// display of one site (1920x1080, and at phone width), of one location, and of the whole
// store naming each alert's site (also in portrait); the Alerts screen naming the site, and
// Where is it opened from an alert row; the item page's Low
// Stock by Site card; the dashboard's Low Stock per site. Light and dark theme, saved to
// test-results/screenshots as site-*.png.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Item } from '../../shared/inventory.js';
import type { Location, Site } from '../../shared/sites.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn } from './shared-steps.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const THEMES = ['light', 'dark'] as const;

describe('screenshots of low stock per site', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let shop: Site;
  let chiller: Location;
  let milk: Item;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    const token = manager.idToken;
    await server.api('PUT', '/settings', token, { storeName: 'Corner Grocer' });
    shop = await server.api<Site>('POST', '/sites', token, { name: 'Shop 2', code: 'S2', time_zone: 'Europe/Paris' });
    chiller = await server.api<Location>('POST', '/locations', token, {
      site_id: shop.id,
      name: 'Chiller',
      code: 'CH',
    });
    const shelf = await server.api<Location>('POST', '/locations', token, {
      site_id: shop.id,
      name: 'Shelf A',
      code: 'SA',
    });
    const warehouse = await server.api<Site>('POST', '/sites', token, {
      name: 'Warehouse',
      code: 'WH',
      time_zone: 'Europe/Paris',
    });
    const dock = await server.api<Location>('POST', '/locations', token, {
      site_id: warehouse.id,
      name: 'Dock',
      code: 'DK',
    });
    const dairy = await addCategory(server, token, 'Dairy');
    const pantry = await addCategory(server, token, 'Pantry');
    const put = (item: Item, delta: number, locationId?: string) =>
      server.api('POST', `/inventory/${item.id}/adjust`, token, {
        delta,
        reason: delta > 0 ? 'restock' : 'sale',
        ...(locationId ? { locationId } : {}),
      });
    milk = await addItem(server, token, dairy, { name: 'Milk', quantity: 20, threshold: 5, price: 1.2 });
    await put(milk, 3, chiller.id);
    const butter = await addItem(server, token, dairy, { name: 'Butter', quantity: 12, threshold: 4, price: 2.5 });
    await put(butter, 9, chiller.id);
    await put(butter, 40, dock.id);
    await put(butter, -40, dock.id);
    const yogurt = await addItem(server, token, dairy, { name: 'Greek Yogurt', quantity: 2, threshold: 4, price: 0.9 });
    await put(yogurt, 8, chiller.id);
    const rice = await addItem(server, token, pantry, { name: 'Basmati Rice', quantity: 30, threshold: 6, price: 3.4 });
    await put(rice, 4, shelf.id);
    await put(rice, 50, dock.id);
    const oil = await addItem(server, token, pantry, { name: 'Olive Oil 1 l', quantity: 3, threshold: 5, price: 8.9 });
    await put(oil, 12, shelf.id);
    await server.api('PUT', `/inventory/${oil.id}/site-thresholds/${shop.id}`, token, { threshold: 15 });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const theme of THEMES) {
    it(`shoots the wall display of Shop 2, of its Chiller and of the whole store in ${theme}`, async () => {
      const { context, page } = await openPage(browser, server, { theme, viewport: { width: 1920, height: 1080 } });
      await page.goto(`/display?siteId=${shop.id}`);
      await page.waitForURL('**/login');
      await signIn(page, manager.email!, manager.password!, '**/display?siteId=*');
      await page.getByTestId('display-alert').first().waitFor();
      await page.waitForTimeout(500);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}site-display-shop-${theme}-1920x1080.png` });
      await page.goto(`/display?locationId=${chiller.id}`);
      await seeText(page.getByTestId('display-place-name'), 'Shop 2 · Chiller');
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}site-display-chiller-${theme}-1920x1080.png` });
      await page.goto('/display');
      await page.getByTestId('display-alert').first().waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}site-display-store-${theme}-1920x1080.png` });
      await page.setViewportSize({ width: 1080, height: 1920 });
      await page.goto(`/display?locationId=${chiller.id}`);
      await seeText(page.getByTestId('display-place-name'), 'Shop 2 · Chiller');
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}site-display-chiller-${theme}-1080x1920.png` });
      await page.setViewportSize(PHONE);
      await page.goto(`/display?siteId=${shop.id}`);
      await page.getByTestId('display-alert').first().waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}site-display-shop-${theme}-390x844.png` });
      await context.close();
    }, 120_000);

    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`shoots Alerts, the item page and the dashboard in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await seeText(page.getByTestId('stat-low-stock'), '6');
        await screenshot(page, 'site-dashboard');
        await page.goto('/alerts');
        await seeText(page.getByTestId('alert-row').filter({ hasText: 'Milk' }), 'Low at Shop 2');
        await screenshot(page, 'site-alerts');
        await page
          .getByTestId('alert-row')
          .filter({ hasText: 'Milk' })
          .getByRole('button', { name: 'Where is Milk' })
          .click();
        await page.getByTestId('where-is-it').filter({ hasText: 'Where is Milk' }).getByText('Chiller').waitFor();
        await screenshot(page, 'site-alerts-where');
        await page.keyboard.press('Escape');
        await page.goto(`/inventory/${milk.id}`);
        await page.getByRole('region', { name: 'Low Stock by Site' }).getByText('Shop 2', { exact: true }).waitFor();
        await screenshot(page, 'site-item-thresholds');
        await context.close();
      }, 120_000);
    }
  }
});
