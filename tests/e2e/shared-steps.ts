// Steps the end-to-end tests share: stock through the API, pages in their own browser
// contexts, sign-in to any landing page, and small waits that measure.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { newAppContext } from '../helpers/e2e-app.js';
import type { E2EServer } from '../helpers/e2e-server.js';

export interface ItemSpec {
  name: string;
  quantity: number;
  threshold: number;
  price: number;
  expiry_date?: string;
}

export async function addCategory(server: E2EServer, token: string, name: string): Promise<Category> {
  return server.api<Category>('POST', '/categories', token, { name, description: `${name} on the shelves` });
}

export async function addItem(server: E2EServer, token: string, category: Category, spec: ItemSpec): Promise<Item> {
  const sku = `${spec.name.slice(0, 3).toUpperCase()}-${Math.random().toString(36).slice(2, 7)}`;
  return server.api<Item>('POST', '/inventory', token, { sku, category_id: category.id, description: '', ...spec });
}

export async function adjust(
  server: E2EServer,
  token: string,
  item: Item,
  delta: number,
  reason = 'correction',
): Promise<Item> {
  return server.api<Item>('POST', `/inventory/${item.id}/adjust`, token, { delta, reason });
}

export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export async function openPage(
  browser: Browser,
  server: E2EServer,
  options: Parameters<typeof newAppContext>[2] = {},
): Promise<OpenPage> {
  const context = await newAppContext(browser, server, options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Signs in through /login and waits to land where the app sends the user (dashboard or `from`). */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  landing: string | RegExp = '**/dashboard',
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(landing, { timeout: 30_000 });
}

export async function navLabels(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
}

/** Milliseconds until `wait` resolves, counted from now. */
export async function timed(wait: Promise<unknown>): Promise<number> {
  const started = Date.now();
  await wait;
  return Date.now() - started;
}
