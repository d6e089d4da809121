// End to end in Chromium: what the Settings tabs and the user menu show each person. A
// browser that never chose a theme shows Light chosen on the Appearance tab (System is a
// choice of its own); staff get no Permissions tab, managers get it with a note and a
// column for every role, a custom one too; the user menu names a custom role by its own name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

describe('settings tabs and the user menu, by role', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let auditor: TestAccount;
  let admin: OpenPage;
  let staffPage: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Tess Tabs');
    staff = await apiAccount(server, 'Stu Staff');
    auditor = await apiAccount(server, 'Ada Auditor');
    const role = await server.api<{ id: string }>('POST', '/roles', manager.idToken, {
      name: 'Stock Auditor',
      description: 'Counts stock and reads reports',
      permissions: ['inventory:view', 'reports:view'],
    });
    await server.api('PUT', `/users/${auditor.uid}/role`, manager.idToken, { role: role.id });

    // Nothing stored in either browser: no theme, nothing else.
    [admin, staffPage] = await Promise.all([openPage(browser, server), openPage(browser, server)]);
    await signIn(admin.page, manager.email!, manager.password!);
    await signIn(staffPage.page, staff.email!, staff.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows a fresh browser's Appearance tab set to Light", async () => {
    const page = staffPage.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByRole('radio', { name: /Light/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(await page.getByRole('radio', { name: /Light/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /System/ }).isChecked()).toBe(false);
    await screenshot(page, 'settings-appearance-fresh');
    // Choosing System is remembered as such, and is not the same as no choice.
    await page.getByRole('radio', { name: /System/ }).check();
    await page.reload();
    await page.getByRole('tab', { name: 'Appearance' }).click();
    expect(await page.getByRole('radio', { name: /System/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /Light/ }).check();
  }, 60_000);

  it('gives staff no Permissions tab, and managers the note above the permission matrix', async () => {
    await staffPage.page.goto('/settings');
    await staffPage.page.getByRole('tab', { name: 'General' }).waitFor();
    expect(await staffPage.page.getByRole('tab').allTextContents()).toEqual(['General', 'Notifications', 'Appearance']);

    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const panel = page.getByRole('tabpanel');
    await seeText(panel, 'These settings can only be modified by store managers.');
    await panel.getByRole('table', { name: 'Permissions of each role' }).waitFor();
    expect(await panel.getByRole('columnheader').allTextContents()).toContain('Stock Auditor');
    await screenshot(page, 'settings-permissions-manager');
  }, 60_000);

  it("shows a custom role's own name in the user menu", async () => {
    const auditorPage = await openPage(browser, server);
    await signIn(auditorPage.page, auditor.email!, auditor.password!);
    await auditorPage.page.getByRole('button', { name: /Account menu/ }).click();
    const badge = auditorPage.page.locator('.user-menu-panel .badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('Stock Auditor');
    await screenshot(auditorPage.page, 'user-menu-custom-role');
    await auditorPage.context.close();
  }, 60_000);
});
