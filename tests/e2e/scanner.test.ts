// Scanning end to end, in headless Chromium against the real server and auth emulator:
// a fake camera playing a video the test builds (an EAN-13, then a QR code with an item's
// URL) lands on the right item; the quick sheet's +1 and Set count change the stock the
// user sees and the server's; a hardware scanner (fast keystrokes + Enter, timed by
// hardware-scanner.ts) in a search box and on the category page opens the item, while the
// same code typed at a person's pace stays a search; no camera, and unknown codes, say
// what to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, fakeCameraArgs, launchBrowser } from '../helpers/browser.js';
import { apiAccount, newAppContext, screenshot, signInViaUi } from '../helpers/e2e-app.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { typeLikeScanner } from '../helpers/hardware-scanner.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { writeFakeCameraVideo } from '../helpers/fake-camera-video.js';

const EAN = '4006381333931';
const WEDGE_CODE = '5901234123457';

describe('scanning', BROWSER_TESTS, () => {
  let server: E2EServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let category: Category;
  let eanItem: Item;
  let qrItem: Item;
  let wedgeItem: Item;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    server = await startE2EServer();
    manager = await apiAccount(server, 'Sam Scanner', 'manager');
    staff = await apiAccount(server, 'Stella Staff', 'staff');
    category = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Pantry' });
    const add = (name: string, sku: string, quantity: number, barcode: string | null) =>
      server.api<Item>('POST', '/inventory', manager.idToken, {
        name,
        sku,
        category_id: category.id,
        quantity,
        price: 3.5,
        threshold: 1,
        barcode,
      });
    eanItem = await add('Sparkling Water', 'PAN-001', 5, EAN);
    qrItem = await add('Rolled Oats', 'PAN-002', 9, null);
    wedgeItem = await add('Green Tea', 'PAN-003', 4, WEDGE_CODE);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    await server?.close();
  });

  async function signedInPage(browser: Browser, account: TestAccount = manager): Promise<Page> {
    const context = await newAppContext(browser, server);
    await context.grantPermissions(['camera'], { origin: server.url });
    const page = await context.newPage();
    await signInViaUi(page, account.email!, account.password!);
    // Let the dashboard finish arriving: a goto() racing its last navigation is aborted.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    return page;
  }

  const sheet = (page: Page) => page.getByRole('dialog');
  const itemQuantity = async (id: string) =>
    (await server.api<Item>('GET', `/inventory/${id}`, manager.idToken)).quantity;

  let cameraPage: Page;

  it('scans an EAN-13 with the camera and lands on its item, with the decoder from our own origin', async () => {
    const browser = await launchBrowser(fakeCameraArgs(await writeFakeCameraVideo({ kind: 'ean13', text: EAN })));
    browsers.push(browser);
    cameraPage = await signedInPage(browser);
    const requests: string[] = [];
    cameraPage.on('request', (request) => requests.push(request.url()));

    await cameraPage.getByRole('button', { name: 'Scan a barcode' }).click();
    await cameraPage.waitForURL(`**/inventory/${eanItem.id}`, { timeout: 30_000 });
    await sheet(cameraPage).getByRole('heading', { name: 'Sparkling Water' }).waitFor();
    expect(await cameraPage.getByTestId('scanner-quantity').textContent()).toBe('5');
    await cameraPage.getByRole('heading', { level: 1, name: 'Sparkling Water' }).waitFor({ state: 'attached' });

    const wasm = requests.filter((url) => url.endsWith('.wasm'));
    expect(wasm).toHaveLength(1);
    expect(wasm[0]!.startsWith(`${server.url}/assets/`)).toBe(true);
    expect(
      requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:') && !url.includes('127.0.0.1:')),
    ).toEqual([]);
    await screenshot(cameraPage, 'scanner-quick-sheet');
  }, 90_000);

  it('adjusts stock from the quick sheet: +1, then Set count', async () => {
    const page = cameraPage;
    await page.getByRole('button', { name: 'Add one' }).click();
    await page.getByTestId('scanner-quantity').filter({ hasText: /^6$/ }).waitFor();
    await page.getByText('Stock updated: Sparkling Water now 6').waitFor();
    expect(await itemQuantity(eanItem.id)).toBe(6);
    // The item page behind the sheet follows (live feed).
    await page.getByTestId('current-stock').filter({ hasText: /^6$/ }).waitFor();

    await page.getByRole('button', { name: 'Set count' }).click();
    await page.getByLabel('Counted quantity').fill('2');
    await page.getByRole('button', { name: 'Save count' }).click();
    await page.getByTestId('scanner-quantity').filter({ hasText: /^2$/ }).waitFor();
    expect(await itemQuantity(eanItem.id)).toBe(2);
    await page.getByTestId('current-stock').filter({ hasText: /^2$/ }).waitFor();
    const history = await server.api<{ reason: string | null; delta: number | null }[]>(
      'GET',
      `/inventory/${eanItem.id}/history`,
      manager.idToken,
    );
    expect(history.map((entry) => [entry.reason, entry.delta]).filter(([reason]) => reason)).toEqual(
      expect.arrayContaining([
        ['correction', 1],
        ['count', -4],
      ]),
    );
  }, 60_000);

  it('scans a label QR code holding an item URL and opens that item', async () => {
    const browser = await launchBrowser(
      fakeCameraArgs(await writeFakeCameraVideo({ kind: 'qrcode', text: `${server.url}/inventory/${qrItem.id}` })),
    );
    browsers.push(browser);
    const page = await signedInPage(browser);
    await page.getByRole('button', { name: 'Scan a barcode' }).click();
    await page.waitForURL(`**/inventory/${qrItem.id}`, { timeout: 30_000 });
    await sheet(page).getByRole('heading', { name: 'Rolled Oats' }).waitFor();
    expect(await page.getByTestId('scanner-quantity').textContent()).toBe('9');
  }, 90_000);

  describe('without a camera, and with a hardware scanner', () => {
    let page: Page;

    beforeAll(async () => {
      const browser = await launchBrowser();
      browsers.push(browser);
      page = await signedInPage(browser);
    }, 60_000);

    it('says the camera is unavailable and takes a typed code instead', async () => {
      await page.getByRole('button', { name: 'Scan a barcode' }).click();
      const problem = sheet(page).getByRole('alert');
      await problem.waitFor();
      expect(await problem.textContent()).toMatch(/No camera was found|Camera access was denied/);
      await screenshot(page, 'scanner-no-camera');
      await sheet(page).getByLabel('Type the code instead').fill(WEDGE_CODE);
      await sheet(page).getByRole('button', { name: 'Look up' }).click();
      await page.waitForURL(`**/inventory/${wedgeItem.id}`);
      await sheet(page).getByRole('heading', { name: 'Green Tea' }).waitFor();
      await sheet(page).getByRole('button', { name: 'Done' }).click();
      await sheet(page).waitFor({ state: 'detached' });
    }, 60_000);

    it('opens the item a hardware scanner types into the inventory search box', async () => {
      await page.goto('/inventory');
      const search = page.getByLabel('Search items');
      await search.click();
      await typeLikeScanner(page, WEDGE_CODE);
      await page.waitForURL(`**/inventory/${wedgeItem.id}`);
      await sheet(page).getByRole('heading', { name: 'Green Tea' }).waitFor();
      expect(await page.getByTestId('scanner-quantity').textContent()).toBe('4');
    }, 60_000);

    it('leaves a code typed by hand (slowly) in the search box as a search', async () => {
      await page.goto('/inventory');
      const search = page.getByLabel('Search items');
      await search.click();
      await typeLikeScanner(page, WEDGE_CODE, 120);
      await page.waitForTimeout(500);
      expect(await search.inputValue()).toBe(WEDGE_CODE);
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe('/inventory');
    }, 60_000);

    it('opens the item a hardware scanner types on the category page, with no field focused', async () => {
      await page.goto(`/inventory/category/${category.id}`);
      await page.getByRole('heading', { level: 1, name: 'Pantry' }).waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await typeLikeScanner(page, EAN);
      await page.waitForURL(`**/inventory/${eanItem.id}`);
      await sheet(page).getByRole('heading', { name: 'Sparkling Water' }).waitFor();
    }, 60_000);

    it('offers managers "Add item with this barcode" for an unknown code', async () => {
      await page.goto(`/inventory/category/${category.id}`);
      await page.getByRole('heading', { level: 1, name: 'Pantry' }).waitFor();
      await typeLikeScanner(page, '96385074');
      await sheet(page).getByText('No item has barcode').waitFor();
      const add = sheet(page).getByRole('link', { name: 'Add item with this barcode' });
      expect(await add.getAttribute('href')).toBe('/inventory/add?barcode=96385074');
    }, 60_000);

    it('tells staff no item has the code, without the add link', async () => {
      const staffPage = await signedInPage(browsers.at(-1)!, staff);
      await staffPage.goto(`/inventory/category/${category.id}`);
      await staffPage.getByRole('heading', { level: 1, name: 'Pantry' }).waitFor();
      await typeLikeScanner(staffPage, '96385074');
      await sheet(staffPage).getByText('No item has barcode 96385074').waitFor();
      expect(await sheet(staffPage).getByRole('link', { name: 'Add item with this barcode' }).count()).toBe(0);
    }, 60_000);
  });
});
