// Page-level helpers for end-to-end tests: browser contexts on the test server, sign-up
// and sign-in through the real forms, API seeding as a signed-in user, and screenshots
// saved to test-results/screenshots as <screen>-<theme>-<desktop|phone>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { refreshIdToken, signUp, uniqueEmail, type TestAccount } from './emulator-accounts.js';
import type { E2EServer } from './e2e-server.js';

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };
const screenshotDir = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export async function newAppContext(
  browser: Browser,
  server: E2EServer,
  options: {
    theme?: 'light' | 'dark';
    viewport?: { width: number; height: number };
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<BrowserContext> {
  // The offline service worker is blocked unless a test asks for it: it would
  // precache the whole app in every context, and page.route cannot see requests it answers.
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: options.viewport ?? DESKTOP,
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  if (options.theme) await context.addInitScript((theme) => localStorage.setItem('theme', theme), options.theme);
  return context;
}

/** Collects uncaught page errors so a test can assert none happened. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

export interface UiAccount {
  name: string;
  email: string;
  password: string;
}

export function newUiAccount(prefix: string, name: string): UiAccount {
  return { name, email: uniqueEmail(prefix), password: 'secret123' };
}

export async function signUpViaUi(page: Page, account: UiAccount, role: 'staff' | 'manager' = 'staff'): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Full Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByLabel('Role').selectOption(role);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard', { timeout: 30_000 });
}

export async function signInViaUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard', { timeout: 30_000 });
}

/** An account made through the emulator and registered with the server (POST /api/session). */
export async function apiAccount(
  server: E2EServer,
  name: string,
  requestedRole: 'staff' | 'manager' = 'staff',
): Promise<TestAccount> {
  const account = await signUp({ displayName: name });
  const session = await server.api<{ refreshToken: boolean }>('POST', '/session', account.idToken, {
    name,
    requestedRole,
  });
  if (session.refreshToken) await refreshIdToken(account);
  return account;
}

export async function screenshot(page: Page, screen: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const theme = await page.evaluate(() => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'));
  const device = (page.viewportSize()?.width ?? DESKTOP.width) < 600 ? 'phone' : 'desktop';
  // Let entrance animations settle.
  await page.waitForTimeout(150);
  // A window as tall as the page (rather than a full-page capture) keeps fixed bars, like
  // the phone dock, where they really are: at the bottom.
  const viewport = page.viewportSize() ?? DESKTOP;
  const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body.scrollHeight));
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 6000) });
  await page.screenshot({ path: path.join(screenshotDir, `${screen}-${theme}-${device}.png`) });
  if (height > viewport.height) await page.setViewportSize(viewport);
}

/** Resolves when the text is visible on the page. */
export async function seeText(scope: Page | Locator, text: string | RegExp, timeout = 10_000): Promise<void> {
  await scope.getByText(text).first().waitFor({ state: 'visible', timeout });
}
