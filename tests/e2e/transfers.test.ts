// End to end in Chromium: a manager drafts a transfer from the warehouse to the shop with the
// New transfer form, ships it and sees it in transit (on its page and, live, on the Transfers
// list open in another tab), undoes the shipment from its toast (a draft again, the stock back
// at the dock) and ships it again, receives part of it at a location of the shop, and writes
// off the rest with a reason; the items' stock says where every unit went.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

describe('transfers between sites', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;
  let list: OpenPage;
  const ids = { dock: '', back: '', hose: '', tape: '' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager');
    const token = manager.idToken;
    const warehouse = await server.api('POST', '/sites', token, { name: 'Warehouse', code: 'WH', time_zone: 'UTC' });
    ids.dock = (
      await server.api('POST', '/locations', token, { site_id: warehouse.id, name: 'Dock', code: 'DOCK' })
    ).id;
    ids.back = (
      await server.api('POST', '/locations', token, { site_id: MAIN_SITE_ID, name: 'Back room', code: 'BACK' })
    ).id;
    const category = await server.api('POST', '/categories', token, { name: 'Garden' });
    const item = (name: string, sku: string, quantity: number) =>
      server.api('POST', '/inventory', token, {
        name,
        sku,
        category_id: category.id,
        quantity,
        price: 9.5,
        threshold: 0,
        location_id: ids.dock,
      });
    ids.hose = (await item('Garden hose', 'HOSE-25', 10)).id;
    ids.tape = (await item('Thread tape', 'TAPE-12', 5)).id;
    [admin, list] = await Promise.all([openPage(browser, server), openPage(browser, server)]);
    await Promise.all([
      signIn(admin.page, manager.email!, manager.password!),
      signIn(list.page, manager.email!, manager.password!),
    ]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('drafts, ships into transit, receives part at the shop and writes off the rest', async () => {
    const page = admin.page;
    await list.page.goto('/transfers');
    await seeText(list.page, 'No transfers here');

    // The form: from the warehouse's dock to the shop, two lines.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transfers' }).click();
    await page.getByRole('link', { name: 'New transfer' }).click();
    await page.getByLabel('From site').selectOption({ label: 'Warehouse' });
    await page.getByLabel('To site').selectOption({ label: 'Main store' });
    const line1 = page.getByRole('group', { name: 'Line 1' });
    expect(await line1.getByLabel('From location').locator('option:checked').textContent()).toBe('Dock');
    await line1.getByLabel('Item').selectOption({ label: 'Garden hose (10 here)' });
    await line1.getByLabel('Quantity').fill('6');
    await page.getByRole('button', { name: 'Add line' }).click();
    const line2 = page.getByRole('group', { name: 'Line 2' });
    await line2.getByLabel('Item').selectOption({ label: 'Thread tape (5 here)' });
    await line2.getByLabel('Quantity').fill('4');
    await page.getByLabel('Note (optional)').fill('For the spring window');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/transfers\/[0-9a-f-]{36}$/);
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('Draft')
      .waitFor();
    await seeText(page, 'For the spring window');
    await seeText(list.page, '#1');

    // Shipped: the units leave the dock and are in transit, here and on the list live.
    await page.getByRole('button', { name: 'Ship' }).click();
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('In transit')
      .waitFor({ timeout: 15_000 });
    await seeText(page, '10 units in transit');
    await seeText(list.page, '10 in transit', 15_000);
    await seeText(list.page, '10 units in transit');
    const where = await server.api('GET', `/inventory/${ids.hose}/locations`, manager.idToken);
    expect(where).toMatchObject({ total: 4, inTransit: 6 });

    // Undo in the shipment's toast: a draft again, every unit back at the dock (the list tab
    // follows live); then shipped again.
    await page.getByRole('button', { name: 'Undo shipment of transfer #1', exact: true }).click();
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('Draft')
      .waitFor({ timeout: 15_000 });
    await seeText(page, 'Undone: Shipped transfer #1: 10 units in transit');
    expect(await page.getByText(/in transit to/).count()).toBe(0);
    expect(await server.api('GET', `/inventory/${ids.hose}/locations`, manager.idToken)).toMatchObject({
      total: 10,
      inTransit: 0,
      locations: [expect.objectContaining({ locationId: ids.dock, quantity: 10 })],
    });
    await list.page
      .getByRole('listitem')
      .filter({ hasText: '#1' })
      .getByText('Draft', { exact: true })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Ship' }).click();
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('In transit')
      .waitFor({ timeout: 15_000 });
    await seeText(list.page, '10 units in transit', 15_000);
    // The toasts (each step's with its Undo) are closed, as a user does to reach the page's buttons.
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();

    // Received in part at the shop's back room: 4 of the 6 hoses, all 4 tapes.
    await page.getByRole('button', { name: 'Receive' }).click();
    let dialog = page.getByRole('dialog', { name: 'Receive transfer #1' });
    await dialog.getByLabel('Put away at').selectOption({ label: 'Back room (BACK)' });
    await dialog.getByLabel(/Garden hose/).fill('4');
    await dialog.getByRole('button', { name: 'Receive' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('Partly received')
      .waitFor();
    await seeText(page, '2 units in transit');
    const hoseRow = page.getByRole('row', { name: /Garden hose/ });
    expect(await hoseRow.locator('td').allTextContents()).toEqual(['Dock', '6', '4', '0', '2']);

    // The 2 hoses left are lost: written off with the reason.
    await page.getByRole('button', { name: 'Write off' }).click();
    dialog = page.getByRole('dialog', { name: 'Write off from transfer #1' });
    await dialog.getByRole('button', { name: 'Write off' }).click();
    await seeText(dialog, 'Say why these units are written off');
    await dialog.getByLabel('Reason').fill('Cut on the way');
    await dialog.getByRole('button', { name: 'Write off' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await page
      .getByRole('heading', { name: /Transfer #1/ })
      .getByText('Received')
      .waitFor();
    expect(await hoseRow.locator('td').allTextContents()).toEqual(['Dock', '6', '4', '2', '0']);
    expect(await page.getByText(/in transit to/).count()).toBe(0);

    // Every unit accounted for: 4 left at the dock, 4 in the back room, 2 lost.
    expect(await server.api('GET', `/inventory/${ids.hose}/locations`, manager.idToken)).toMatchObject({
      total: 8,
      inTransit: 0,
      locations: expect.arrayContaining([
        expect.objectContaining({ locationId: ids.dock, quantity: 4 }),
        expect.objectContaining({ locationId: ids.back, quantity: 4 }),
      ]),
    });
    await list.page.getByRole('button', { name: 'All' }).click();
    await list.page.getByRole('listitem').filter({ hasText: '#1' }).getByText('Received').waitFor({ timeout: 15_000 });
    expect(admin.errors).toEqual([]);
    expect(list.errors).toEqual([]);
  }, 180_000);
});
