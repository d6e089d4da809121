// Store settings as events: read by everyone signed in, written with Manage settings, and
// the guest switch that shuts anonymous accounts out at once; the store's currency and
// locale, checked, kept and served (also with the dashboard's and the display's figures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { signInAnonymously } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { newGuest, newMember, type SignedIn } from './accounts-fixtures.js';

/**
 * A new store's settings, written out here rather than taken from the app's own
 * DEFAULT_SETTINGS (a change there must fail this): low-stock threshold 10, store name
 * 'My Store', both notification toggles on; guest sign-in off until a manager turns it
 * on (migrations/018_guest_access_off.sql); no contact email until one is entered.
 * Matched with toMatchObject: fields added later do not break this.
 */
const NEW_STORE_SETTINGS = {
  storeName: 'My Store',
  email: '',
  lowStockThreshold: 10,
  emailNotifications: true,
  pushNotifications: true,
  allowGuests: false,
};

describe.each(backends())('settings API on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let guest: SignedIn;
  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await newMember(server, { name: 'Morgan Manager' });
    staff = await newMember(server, { name: 'Sam Staff' });
  });
  afterAll(() => server?.close());

  it('starts from the defaults (guest sign-in off), readable by everyone signed in', async () => {
    for (const who of [manager, staff]) {
      const res = await server.request('GET', '/api/settings', { token: who.idToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(NEW_STORE_SETTINGS);
    }
    expect((await server.request('GET', '/api/settings')).status).toBe(401);
    const anonymous = await server.request('GET', '/api/settings', { token: (await signInAnonymously()).idToken });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ error: 'Guest access is disabled' });
  });

  it('saves a partial change as one event with only what changed', async () => {
    const res = await server.request('PUT', '/api/settings', {
      token: manager.idToken,
      body: { storeName: '  Corner Shop ', lowStockThreshold: 10, email: 'Shop@Example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...NEW_STORE_SETTINGS, storeName: 'Corner Shop', email: 'shop@example.com' });
    const events = await server.store.store.readStream('settings');
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['SettingsChanged', { changes: { storeName: 'Corner Shop', email: 'shop@example.com' } }],
    ]);
    expect(events[0]!.metadata.actor.uid).toBe(manager.uid);

    const same = await server.request('PUT', '/api/settings', {
      token: manager.idToken,
      body: { storeName: 'Corner Shop' },
    });
    expect(same.status).toBe(200);
    expect(await server.store.store.readStream('settings')).toHaveLength(1);
    expect((await server.request('GET', '/api/settings', { token: staff.idToken })).body.storeName).toBe('Corner Shop');
  });

  it('lets a manager switch guest sign-in on, after which guests read the settings', async () => {
    const on = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { allowGuests: true } });
    expect(on.status).toBe(200);
    expect(on.body.allowGuests).toBe(true);
    guest = await newGuest(server);
    const res = await server.request('GET', '/api/settings', { token: guest.idToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ storeName: 'Corner Shop', allowGuests: true });
  });

  it('refuses changes without Manage settings', async () => {
    for (const who of [staff, guest]) {
      const res = await server.request('PUT', '/api/settings', { token: who.idToken, body: { storeName: 'Mine now' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "You don't have permission to manage settings" });
    }
  });

  it('refuses an invalid contact email and a blank store name', async () => {
    const email = await server.request('PUT', '/api/settings', {
      token: manager.idToken,
      body: { email: 'not an email' },
    });
    expect(email.status).toBe(400);
    expect(email.body).toEqual({ error: 'Invalid email address' });
    const blank = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { storeName: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'Store name is required' });
    const cleared = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { email: '' } });
    expect(cleared.body.email).toBe('');
  });

  it("shuts guests out with 'Guest access is disabled' while allowGuests is off", async () => {
    const off = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { allowGuests: false } });
    expect(off.body.allowGuests).toBe(false);
    // An existing guest, and a brand-new anonymous sign-in, are both refused.
    const newcomer = await signInAnonymously();
    for (const token of [guest.idToken, newcomer.idToken]) {
      for (const [method, path] of [
        ['GET', '/api/inventory'],
        ['POST', '/api/session'],
        ['GET', '/api/settings'],
      ] as const) {
        const res = await server.request(method, path, { token, body: method === 'POST' ? {} : undefined });
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual({ error: 'Guest access is disabled' });
      }
    }
    expect((await server.request('GET', '/api/inventory', { token: staff.idToken })).status).toBe(200);

    await server.request('PUT', '/api/settings', { token: manager.idToken, body: { allowGuests: true } });
    expect((await server.request('GET', '/api/inventory', { token: guest.idToken })).status).toBe(200);
  });

  it('keeps a store that never chose in US dollars written for en-US, on the dashboard and the display too', async () => {
    const read = await server.request('GET', '/api/settings', { token: staff.idToken });
    expect(read.body).toMatchObject({ currency: 'USD', locale: 'en-US' });
    const dashboard = await server.request('GET', '/api/dashboard', { token: manager.idToken });
    expect(dashboard.body.money).toEqual({ currency: 'USD', locale: 'en-US' });
    const display = await server.request('GET', '/api/dashboard/display', { token: manager.idToken });
    expect(display.body.money).toEqual({ currency: 'USD', locale: 'en-US' });
  });

  it('refuses a currency that is not ISO 4217 and a locale that is not a BCP 47 tag, with a plain 400', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ currency: 'XYZ' }, 'Unknown currency "XYZ": use an ISO 4217 code such as USD, EUR or GBP'],
      [{ currency: 'EURO' }, 'Unknown currency "EURO": use an ISO 4217 code such as USD, EUR or GBP'],
      [{ currency: '€' }, 'Unknown currency "€": use an ISO 4217 code such as USD, EUR or GBP'],
      [
        { locale: 'not a locale' },
        'Unknown locale "not a locale": use a BCP 47 language tag such as en-US, fr-FR or de-DE',
      ],
      [{ locale: 'zz-ZZ' }, 'Unknown locale "zz-ZZ": use a BCP 47 language tag such as en-US, fr-FR or de-DE'],
      [
        { currency: 'EUR', locale: 'fr_FR' },
        'Unknown locale "fr_FR": use a BCP 47 language tag such as en-US, fr-FR or de-DE',
      ],
    ];
    for (const [body, error] of refusals) {
      const res = await server.request('PUT', '/api/settings', { token: manager.idToken, body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
    }
    for (const body of [{ currency: 978 }, { locale: '' }, { currency: 'EUR', symbol: '€' }]) {
      const res = await server.request('PUT', '/api/settings', { token: manager.idToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect(
      (await server.request('PUT', '/api/settings', { token: staff.idToken, body: { currency: 'EUR' } })).status,
    ).toBe(403);
    // Nothing of the refused changes was kept.
    expect((await server.request('GET', '/api/settings', { token: staff.idToken })).body).toMatchObject({
      currency: 'USD',
      locale: 'en-US',
    });
  });

  it('stores euros written for France, spelled as the standards do, and serves them to every reader', async () => {
    const res = await server.request('PUT', '/api/settings', {
      token: manager.idToken,
      body: { currency: 'eur', locale: 'fr-fr' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currency: 'EUR', locale: 'fr-FR', storeName: 'Corner Shop' });
    const events = await server.store.store.readStream('settings');
    expect(events.at(-1)!.data).toEqual({ changes: { currency: 'EUR', locale: 'fr-FR' } });
    for (const who of [staff, guest]) {
      expect((await server.request('GET', '/api/settings', { token: who.idToken })).body).toMatchObject({
        currency: 'EUR',
        locale: 'fr-FR',
      });
    }
    expect((await server.request('GET', '/api/dashboard', { token: manager.idToken })).body.money).toEqual({
      currency: 'EUR',
      locale: 'fr-FR',
    });
    expect((await server.request('GET', '/api/dashboard/display', { token: guest.idToken })).body.money).toEqual({
      currency: 'EUR',
      locale: 'fr-FR',
    });
    // Another change leaves the money format as it was; changing only the locale keeps the currency.
    await server.request('PUT', '/api/settings', { token: manager.idToken, body: { lowStockThreshold: 7 } });
    const swiss = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { locale: 'de-CH' } });
    expect(swiss.body).toMatchObject({ currency: 'EUR', locale: 'de-CH', lowStockThreshold: 7 });
    await server.request('PUT', '/api/settings', { token: manager.idToken, body: { locale: 'fr-FR' } });
  });

  it('leaves projections identical to a rebuild from the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
