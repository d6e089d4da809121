// Screenshots of roles per site: the Users page with each card's sites, and a user's Sites
// dialog (chosen sites, a role at each), in the light and dark theme at desktop and phone
// width, saved to test-results/screenshots as site-roles-*.png.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn } from './shared-steps.js';

const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of roles per site', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let walt: TestAccount;
  let wendy: TestAccount;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    const api = <T = any>(method: string, path: string, body?: unknown) =>
      server.api<T>(method, path, manager.idToken, body);
    const warehouse = await api('POST', '/sites', { name: 'Harbour warehouse', code: 'WH', time_zone: 'UTC' });
    const dock = await api('POST', '/locations', { site_id: warehouse.id, name: 'Dock', code: 'DOCK' });
    const garden = await api('POST', '/categories', { name: 'Garden' });
    for (const [name, sku, quantity, at] of [
      ['Garden hose 25 m', 'GH-25', 12, dock.id],
      ['Watering can 10 l', 'WC-10', 6, dock.id],
      ['Rake', 'RK-1', 9, null],
    ] as const)
      await api('POST', '/inventory', {
        name,
        sku,
        category_id: garden.id,
        quantity,
        price: 9.5,
        threshold: 2,
        ...(at ? { location_id: at } : {}),
      });
    const shop = await api('POST', '/sites', { name: 'Shop 2, Old Town', code: 'S2', time_zone: 'UTC' });
    await api('POST', '/locations', { site_id: shop.id, name: 'Counter', code: 'CTR' });
    walt = await apiAccount(server, 'Walt Warehouse');
    await apiAccount(server, 'Sam Everywhere');
    wendy = await apiAccount(server, 'Wendy Lead');
    await api('PUT', `/users/${wendy.uid}/role`, { role: 'manager' });
    await api('PUT', `/users/${walt.uid}/site-roles`, { siteRoles: [{ siteId: warehouse.id, role: 'staff' }] });
    await api('PUT', `/users/${wendy.uid}/site-roles`, {
      siteRoles: [
        { siteId: warehouse.id, role: 'manager' },
        { siteId: shop.id, role: 'staff' },
        { siteId: MAIN_SITE_ID, role: 'staff' },
      ],
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/users');
    await seeText(page, 'Harbour warehouse (Staff Member)');
    await screenshot(page, 'site-roles-users');

    await page.getByRole('button', { name: 'Sites for Wendy Lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sites for Wendy Lead' });
    await dialog.getByLabel(/Harbour warehouse/).waitFor();
    await screenshot(page, 'site-roles-dialog');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Sites for Sam Everywhere' }).click();
    await page
      .getByRole('dialog', { name: 'Sites for Sam Everywhere' })
      .getByText('Every site', { exact: true })
      .waitFor();
    await screenshot(page, 'site-roles-dialog-every-site');
    await page.keyboard.press('Escape');
  }

  /** What someone limited to some sites sees: a refusal in the dialog, their site's items. */
  async function shootLimited(page: Page): Promise<void> {
    await page.goto('/users');
    await page.getByRole('button', { name: 'Sites for Sam Everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sites for Sam Everywhere' });
    await dialog.getByLabel('Chosen sites').check();
    await dialog.getByLabel(/Harbour warehouse/).selectOption({ label: 'Staff Member' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await seeText(dialog, /they work at every site and you don't/);
    await screenshot(page, 'site-roles-dialog-refused');
    await page.keyboard.press('Escape');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots a refusal and a staff member's items in ${theme} at ${device} width`, async () => {
        const lead = await openPage(browser, server, { theme, viewport });
        await signIn(lead.page, wendy.email!, wendy.password!, '**/inventory**');
        await shootLimited(lead.page);
        await lead.context.close();
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, walt.email!, walt.password!, '**/inventory**');
        await page.getByTestId('placed-row').first().waitFor();
        await screenshot(page, 'site-roles-staff-inventory');
        await context.close();
      }, 180_000);
      it(`shoots the Users page and the Sites dialog in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }
});
