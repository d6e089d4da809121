// End to end in Chromium: a manager finds Sites and locations from Settings, sees Main store
// with its default location, adds a location and another inside it through the forms and
// sees them in the tree, is told in place why the first cannot be archived, and sees a change
// made elsewhere arrive live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MAIN_SITE_ID } from '../../shared/places.js';
import type { Location } from '../../shared/sites.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

describe('sites and locations', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mara Manager');
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('adds locations to the tree, shows a refused archive in place, and follows changes live', async () => {
    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Sites and locations' }).click();
    await page.waitForURL('**/settings/places');
    const main = page.getByTestId('site-card').filter({ hasText: 'Main store' });
    const rows = main.getByTestId('location-row');
    await rows.filter({ hasText: 'Main location' }).getByText('Default').waitFor();

    await main.getByRole('button', { name: 'Add location' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Location' });
    await dialog.getByLabel('Name', { exact: true }).fill('Back room');
    await dialog.getByLabel('Code', { exact: true }).fill('BACK');
    await dialog.getByRole('button', { name: 'Add Location' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    const backRoom = rows.filter({ hasText: 'Back room' });
    await backRoom.waitFor();

    // Inside it, from its menu; a taken code is refused at the Code input first.
    await backRoom.getByRole('button', { name: 'Actions for Back room' }).click();
    await page.getByRole('menuitem', { name: 'Add inside' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Location' });
    expect(await dialog.getByLabel('Inside').locator('option:checked').textContent()).toContain('Back room');
    await dialog.getByLabel('Name', { exact: true }).fill('Shelf 2');
    await dialog.getByLabel('Code', { exact: true }).fill('back');
    await dialog.getByRole('button', { name: 'Add Location' }).click();
    await seeText(dialog, 'Code back is already used by Back room at this site');
    expect(await dialog.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Code', { exact: true }).fill('S2');
    await dialog.getByRole('button', { name: 'Add Location' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await rows.filter({ hasText: 'Shelf 2' }).waitFor();
    // In the tree: Shelf 2 right under Back room, one step in.
    const names = await rows.locator('.location-name').allTextContents();
    expect(names.indexOf('Shelf 2')).toBe(names.indexOf('Back room') + 1);
    const indent = (name: string) =>
      rows.filter({ hasText: name }).evaluate((row) => getComputedStyle(row).paddingLeft);
    expect(parseFloat(await indent('Shelf 2'))).toBeGreaterThan(parseFloat(await indent('Back room')));

    // Archiving Back room is refused while Shelf 2 is inside it: said under Back room.
    await backRoom.getByRole('button', { name: 'Actions for Back room' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    const refusal = backRoom.getByTestId('place-refusal');
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.textContent()).toContain(
      'Back room still has 1 location inside (Shelf 2): archive or move them first',
    );
    expect(await backRoom.getByText('Archived').count()).toBe(0);

    // A change made elsewhere shows without a reload.
    const locations = await server.api<Location[]>('GET', `/locations?siteId=${MAIN_SITE_ID}`, manager.idToken);
    const shelf = locations.find((l) => l.name === 'Shelf 2')!;
    await server.api('PATCH', `/locations/${shelf.id}`, manager.idToken, { name: 'Shelf Two' });
    await expect
      .poll(() => rows.locator('.location-name').allTextContents(), { timeout: 15_000 })
      .toContain('Shelf Two');
    expect(admin.errors).toEqual([]);
  }, 120_000);
});
