// End to end in Chromium: the Users page (search, Add User making a real account that
// signs in, disable and enable), a sign-up asking for Store Manager approved by a manager
// while the requester's screens change role without signing out, and a custom role from
// the Roles page limiting what its user sees and can do (and the server refusing the rest).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, newUiAccount, seeText, signUpViaUi } from '../helpers/e2e-app.js';
import { signIn as emulatorSignIn, uniqueEmail, type TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, navLabels, openPage, signIn, type OpenPage } from './shared-steps.js';

/** The session watch checks every 15 s; a role change shows up within that and a refresh. */
const ROLE_CHANGE_MS = 25_000;

async function roleBadge(page: Page): Promise<string | null> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  const label = await page.locator('.user-menu-panel .badge').textContent();
  await page.keyboard.press('Escape');
  return label;
}

describe('users and roles', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let snacks: Category;
  let admin: OpenPage;
  const nina = { name: 'Nina Newhire', email: uniqueEmail('nina'), password: 'nina-pass-1' };
  let ninaPage: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mara Manager');
    await apiAccount(server, 'Theo Staff');
    snacks = await addCategory(server, manager.idToken, 'Snacks');
    await addItem(server, manager.idToken, snacks, { name: 'Pretzels', quantity: 12, threshold: 2, price: 2 });
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists accounts as cards and searches by name, email or role', async () => {
    const page = admin.page;
    await page.goto('/users');
    await page.getByTestId('user-card').nth(1).waitFor();
    expect(await page.getByLabel('Search users by name, email, or role').getAttribute('placeholder')).toBe(
      'Search users by name, email, or role...',
    );
    await page.getByLabel('Search users by name, email, or role').fill('store manager');
    expect(await page.getByTestId('user-card').allTextContents()).toEqual([expect.stringContaining('Mara Manager')]);
    await page.getByLabel('Search users by name, email, or role').fill('nobody-like-this');
    await seeText(page, 'No users found');
    await seeText(page, 'No users match your search criteria.');
    await page.getByLabel('Search users by name, email, or role').fill('');
  }, 60_000);

  it('adds a real account with Add User, which then signs in', async () => {
    const page = admin.page;
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await seeText(dialog, 'Please fill in all required fields');
    await dialog.getByLabel('Full Name').fill(nina.name);
    await dialog.getByLabel('Email').fill(nina.email);
    await dialog.getByLabel('Password').fill(nina.password);
    expect(await dialog.getByLabel('Role').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Staff Member', 'Store Manager']),
    );
    expect(await dialog.getByLabel('Role').inputValue()).toBe('staff');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await page.getByTestId('user-card').filter({ hasText: nina.name }).waitFor();

    ninaPage = await openPage(browser, server);
    await signIn(ninaPage.page, nina.email, nina.password);
    expect(await roleBadge(ninaPage.page)).toBe('Staff');
    await ninaPage.page.goto('/users');
    await seeText(ninaPage.page, 'Access Denied');
    await seeText(ninaPage.page, "You don't have permission to view this page.");
  }, 90_000);

  it("approves a manager request; the requester's screens change role without signing out", async () => {
    const requester = await openPage(browser, server);
    const account = newUiAccount('wants-manager', 'Rita Requester');
    await signUpViaUi(requester.page, account, 'manager');
    expect(await roleBadge(requester.page)).toBe('Staff');
    expect(await navLabels(requester.page)).not.toContain('Users');

    const page = admin.page;
    const request = page.getByTestId('pending-request').filter({ hasText: 'Rita Requester' });
    await request.waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Approve Rita Requester as Store Manager' }).click();
    await request.waitFor({ state: 'detached', timeout: 10_000 });
    await seeText(page.getByTestId('user-card').filter({ hasText: 'Rita Requester' }), 'Store Manager');

    // Same page, no sign-out: the dock gains Users and Roles, the menu says Manager.
    await requester.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Users' })
      .waitFor({ timeout: ROLE_CHANGE_MS });
    expect(await navLabels(requester.page)).toEqual([
      'Dashboard',
      'Items',
      'Transfers',
      'Users',
      'Logs',
      'Alerts',
      'Count',
      'Roles',
      'Setup',
    ]);
    expect(await roleBadge(requester.page)).toBe('Manager');
    await requester.page.goto('/users');
    await requester.page.getByTestId('user-card').first().waitFor();
    expect(requester.errors).toEqual([]);
    await requester.context.close();
  }, 120_000);

  it('makes a custom role that limits what its user sees and can do', async () => {
    const page = admin.page;
    await page.goto('/roles');
    await page.getByTestId('role-card').first().waitFor();
    await page.getByRole('button', { name: 'Add Role' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Role' });
    await dialog.getByLabel('Role Name').fill('Shelf Viewer');
    await dialog.getByRole('button', { name: 'Add Role' }).click();
    await seeText(dialog, 'Role name and description are required');
    await dialog.getByLabel('Description').fill('Looks at stock and reports, changes nothing');
    await dialog.getByLabel('View inventory').check();
    await dialog.getByLabel('View reports').check();
    await dialog.getByRole('button', { name: 'Add Role' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    const card = page.getByTestId('role-card').filter({ hasText: 'Shelf Viewer' });
    await seeText(card, '2 permissions');
    expect(await card.getByRole('list').getByRole('listitem').allTextContents()).toEqual([
      'View inventory',
      'View reports',
    ]);

    // Before: Nina (staff) may add items and change stock.
    const nPage = ninaPage.page;
    await nPage.goto(`/inventory/category/${snacks.id}`);
    await nPage.getByRole('button', { name: 'Increase quantity of Pretzels' }).waitFor();

    await page.goto('/users');
    const ninaCard = page.getByTestId('user-card').filter({ hasText: nina.name });
    await ninaCard.getByLabel(`Role for ${nina.name}`).selectOption({ label: 'Shelf Viewer' });
    await seeText(ninaCard, 'Shelf Viewer');

    // After, without signing out: no stock buttons, no Add Item, and the server refuses.
    await nPage
      .getByRole('button', { name: 'Increase quantity of Pretzels' })
      .waitFor({ state: 'detached', timeout: ROLE_CHANGE_MS });
    await nPage.goto('/inventory');
    await nPage.getByRole('heading', { name: 'Inventory' }).waitFor();
    await seeText(nPage, 'Snacks');
    expect(await nPage.getByRole('button', { name: 'Add Item' }).count()).toBe(0);
    const token = (await emulatorSignIn(nina.email, nina.password)).idToken;
    const items = await server.api<{ id: string }[]>('GET', '/inventory', token);
    await expect(
      server.api('POST', `/inventory/${items[0]!.id}/adjust`, token, { delta: 1, reason: 'restock' }),
    ).rejects.toThrow(/403/);
    await nPage.goto('/dashboard');
    await nPage.getByTestId('stat-total-items').waitFor();

    // Editing the role's permissions gives stock changes back.
    await page.goto('/roles');
    await page.getByRole('button', { name: 'Edit role Shelf Viewer' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Role' });
    await edit.getByLabel('Update stock levels').check();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'hidden', timeout: 15_000 });
    await seeText(page.getByTestId('role-card').filter({ hasText: 'Shelf Viewer' }), '3 permissions');
    await nPage.goto(`/inventory/category/${snacks.id}`);
    await nPage.getByRole('button', { name: 'Increase quantity of Pretzels' }).waitFor({ timeout: ROLE_CHANGE_MS });
  }, 150_000);

  it('refuses to delete a role someone holds, then deletes it once nobody does', async () => {
    const page = admin.page;
    await page.getByRole('button', { name: 'Delete role Shelf Viewer' }).click();
    await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
    await seeText(page, 'is still given to an account');
    expect(await page.getByTestId('role-card').filter({ hasText: 'Shelf Viewer' }).count()).toBe(1);

    await page.goto('/users');
    await page
      .getByTestId('user-card')
      .filter({ hasText: nina.name })
      .getByLabel(`Role for ${nina.name}`)
      .selectOption({ label: 'Staff Member' });
    await seeText(page.getByTestId('user-card').filter({ hasText: nina.name }), 'Staff Member');
    await page.goto('/roles');
    await page.getByRole('button', { name: 'Delete role Shelf Viewer' }).click();
    await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByTestId('role-card')
      .filter({ hasText: 'Shelf Viewer' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    // Built-in roles have no Edit or Delete.
    expect(await page.getByRole('button', { name: 'Delete role Store Manager' }).count()).toBe(0);
  }, 90_000);

  it('disables an account (its session ends) and enables it again', async () => {
    const page = admin.page;
    await page.goto('/users');
    await page.getByRole('button', { name: `Disable ${nina.name}` }).click();
    await page.getByRole('dialog', { name: 'Disable account' }).getByRole('button', { name: 'Disable' }).click();
    await seeText(page.getByTestId('user-card').filter({ hasText: nina.name }), 'Disabled');
    await ninaPage.page.waitForURL('**/login', { timeout: 20_000 });
    await page.getByRole('button', { name: `Enable ${nina.name}` }).click();
    await seeText(page.getByTestId('user-card').filter({ hasText: nina.name }), 'Active');
    // Signing in again returns to the page the session ended on.
    await signIn(ninaPage.page, nina.email, nina.password, '**/inventory/category/**');
    expect(admin.errors).toEqual([]);
  }, 90_000);
});
