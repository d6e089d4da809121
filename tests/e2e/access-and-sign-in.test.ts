// End to end: who may see and do what, and every way in. A staff member is sent away from
// manager pages ('Access Denied' on /users and /roles); a guest sees items but can't
// change stock; Google sign-in runs through the emulator's own account page in a real
// popup; sign-in failures show their messages in the red box; logout ends the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { installGapiShim, POPUP_TEST_BROWSER_ARGS } from '../helpers/e2e-gapi-shim.js';
import {
  apiAccount,
  newAppContext,
  newUiAccount,
  screenshot,
  seeText,
  signInViaUi,
  signUpViaUi,
} from '../helpers/e2e-app.js';
import { uniqueEmail } from '../helpers/emulator-accounts.js';

describe('access rules and sign-in flows', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let managerEmail = '';
  let managerToken = '';
  let item: Item;
  let category: Category;
  const contexts: BrowserContext[] = [];

  async function freshPage(): Promise<Page> {
    const context = await newAppContext(browser, server);
    contexts.push(context);
    return context.newPage();
  }

  async function navLabels(page: Page): Promise<string[]> {
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
  }

  async function roleLabel(page: Page): Promise<string | null> {
    await page.getByRole('button', { name: /Account menu/ }).click();
    const label = await page.locator('.user-menu-panel .badge').textContent();
    await page.keyboard.press('Escape');
    return label;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser(POPUP_TEST_BROWSER_ARGS)]);
    // The store's first account (the manager) and some stock, through the API.
    const manager = await apiAccount(server, 'Max Manager');
    managerEmail = manager.email!;
    managerToken = manager.idToken;
    category = await server.api<Category>('POST', '/categories', manager.idToken, {
      name: 'Snacks',
      description: 'Chips and bars',
    });
    item = await server.api<Item>('POST', '/inventory', manager.idToken, {
      name: 'Trail Mix',
      description: 'Nuts and raisins, 200 g',
      sku: 'SN-001',
      category_id: category.id,
      quantity: 12,
      price: 3.99,
      threshold: 4,
    });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('shows the messages for failed sign-ins in the red box', async () => {
    const page = await freshPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(managerEmail);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await seeText(page.getByRole('alert'), 'Incorrect password');

    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await seeText(page.getByRole('alert'), 'No account found with this email');
    await screenshot(page, 'login-error');

    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Pat Typo');
    await page.getByLabel('Email').fill(uniqueEmail('typo'));
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm Password').fill('secret124');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await seeText(page.getByRole('alert'), 'Passwords do not match');
    expect(new URL(page.url()).pathname).toBe('/register');

    await page.getByLabel('Email').fill(managerEmail);
    await page.getByLabel('Confirm Password').fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await seeText(page.getByRole('alert'), 'An account already exists with this email. Please sign in instead.');
    await screenshot(page, 'register-error');
  }, 60_000);

  it('keeps a staff member out of manager pages', async () => {
    const page = await freshPage();
    const staff = newUiAccount('staff', 'Sam Staff');
    await signUpViaUi(page, staff, 'staff');
    expect(await roleLabel(page)).toBe('Staff');
    expect(await navLabels(page)).toEqual(['Dashboard', 'Items', 'Transfers', 'Logs', 'Alerts', 'Count', 'Setup']);

    await page.goto('/inventory/add');
    await page.waitForURL('**/dashboard');
    await page.goto(`/inventory/${item.id}/edit`);
    await page.waitForURL('**/dashboard');

    await page.goto('/users');
    await seeText(page, 'Access Denied');
    await seeText(page, "You don't have permission to view this page.");
    expect(new URL(page.url()).pathname).toBe('/users');
    await screenshot(page, 'access-denied');
    await page.goto('/roles');
    await seeText(page, 'Access Denied');

    // Staff update stock but don't edit or delete items.
    await page.goto(`/inventory/category/${category.id}`);
    await seeText(page, '12 in stock');
    await page.getByRole('button', { name: 'Increase quantity of Trail Mix' }).click();
    await seeText(page, '13 in stock');
    expect(await page.getByRole('link', { name: 'Edit Trail Mix' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Trail Mix' }).count()).toBe(0);
    await page.goto(`/inventory/${item.id}`);
    await page.getByRole('button', { name: 'Adjust stock' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit Item' }).count()).toBe(0);
  }, 60_000);

  it('asks for Store Manager access at sign-up without granting it', async () => {
    const page = await freshPage();
    await signUpViaUi(page, newUiAccount('hopeful', 'Hope Ful'), 'manager');
    expect(await roleLabel(page)).toBe('Staff');
    await page.goto('/users');
    await seeText(page, 'Access Denied');
  }, 60_000);

  it('lets a guest see items but not change them, once a manager allows guest sign-in', async () => {
    const page = await freshPage();
    // Off by default: the sign-in screen does not offer it.
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await page.waitForTimeout(1000); // the store's answer (client config) has long arrived
    expect(await page.getByRole('button', { name: 'Continue as guest' }).count()).toBe(0);
    await server.api('PUT', '/settings', managerToken, { allowGuests: true });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await page.waitForURL('**/dashboard', { timeout: 30_000 });
    expect(await roleLabel(page)).toBe('Guest');

    await page.goto('/inventory');
    await seeText(page.getByRole('link', { name: /Snacks/ }), '1 item');
    expect(await page.getByRole('button', { name: 'Add Item' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add Category' }).count()).toBe(0);

    await page.getByRole('link', { name: /Snacks/ }).click();
    await seeText(page, /\d+ in stock/);
    expect(await page.getByRole('button', { name: /quantity of Trail Mix/ }).count()).toBe(0);
    await screenshot(page, 'category-guest');
    await page.goto(`/inventory/${item.id}`);
    await page.getByRole('heading', { name: 'Trail Mix' }).waitFor();
    expect(await page.getByRole('button', { name: 'Adjust stock' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit Item' }).count()).toBe(0);
  }, 60_000);

  it("signs in with Google through the emulator's account page", async () => {
    const context = await newAppContext(browser, server);
    contexts.push(context);
    await installGapiShim(context);
    // The popup hands its result back only if the page keeps its opener.
    const probe = await fetch(server.url + '/login');
    await probe.arrayBuffer();
    expect(probe.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    const page = await context.newPage();
    await page.goto('/login');
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Sign in with Google' }).click(),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toContain('/emulator/auth/handler');
    const googleEmail = uniqueEmail('google');
    await popup.locator('#add-account-button').click();
    await popup.locator('#email-input').fill(googleEmail);
    await popup.locator('#display-name-input').fill('Gina Google');
    await popup.locator('#sign-in').click();
    await page.waitForURL('**/dashboard', { timeout: 30_000 });
    await seeText(page.getByRole('button', { name: /Account menu/ }), 'Gina Google');
    expect(await roleLabel(page)).toBe('Staff');

    // Logout ends the session; signed-in pages then send to /login.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.goto('/inventory');
    await page.waitForURL('**/login');

    // That email has no password: the login form says to use Google.
    await page.getByLabel('Email').fill(googleEmail);
    await page.getByLabel('Password').fill('whatever1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await seeText(
      page.getByRole('alert'),
      'This email is associated with a Google account. Please sign in with Google.',
    );
  }, 90_000);

  it('completes sign-in on /auth/callback and redirects signed-in users away from /login', async () => {
    const page = await freshPage();
    await page.goto('/auth/callback');
    await page.waitForURL('**/login');
    const account = await apiAccount(server, 'Cal Back');
    await signInViaUi(page, account.email!, account.password!);
    await page.goto('/auth/callback');
    await page.waitForURL('**/dashboard');
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await page.goto('/');
    await page.waitForURL('**/dashboard');
  }, 60_000);
});
