// Who may use the feed and what they see, with real emulator tokens and real WebSocket
// clients: bad, forged and expired tokens are refused with their close codes, tokens are
// re-verified and expire, the Origin is checked, a guest never receives user events, and
// disabling an account or turning guests off closes their connections at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, FEED_PROTOCOL, TOKEN_PROTOCOL_PREFIX, type ServerMessage } from '../../shared/realtime.js';
import { backends } from '../helpers/backends.js';
import { forgeToken, signIn, signInAnonymously, uniqueEmail } from '../helpers/emulator-accounts.js';
import { connectFeed, type FeedClient } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, type SignedIn } from './accounts-fixtures.js';

const now = () => Math.floor(Date.now() / 1000);
const hasHello = (m: ServerMessage[]) => m.some((x) => x.type === 'hello');

describe('feed access', { timeout: 120_000 }, () => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let guest: SignedIn;
  const open: FeedClient[] = [];

  async function feed(token: string): Promise<FeedClient> {
    const client = await connectFeed(server.url, { token });
    open.push(client);
    await client.waitFor(hasHello, 30_000, 'hello');
    return client;
  }

  beforeAll(async () => {
    server = await startTestServer(backends()[0]!);
    ({ manager, staff, guest } = await cast(server));
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.close();
  });

  describe('tokens', () => {
    it.each([
      [
        'an expired token',
        () => forgeToken({ exp: now() - 60, iat: now() - 3700 }),
        CLOSE_CODES.tokenExpired,
        'Token expired',
      ],
      [
        'a token for another project',
        () => forgeToken({ aud: 'demo-other', iss: 'https://securetoken.google.com/demo-other' }),
        CLOSE_CODES.authRequired,
        'Invalid token',
      ],
      ['a garbled token', () => 'not-a-jwt', CLOSE_CODES.authRequired, 'Invalid token'],
    ])('refuses %s with its close code and sends nothing', async (_label, token, code, reason) => {
      const client = await connectFeed(server.url, { token: token() });
      expect(await client.closed).toEqual({ code, reason });
      expect(client.messages).toEqual([]);
    });

    it('refuses a forged token in the protocol header too', async () => {
      const forged = forgeToken({ aud: 'demo-other', iss: 'https://securetoken.google.com/demo-other' });
      const client = await connectFeed(server.url, { protocols: [FEED_PROTOCOL, TOKEN_PROTOCOL_PREFIX + forged] });
      expect(await client.closed).toEqual({ code: CLOSE_CODES.authRequired, reason: 'Invalid token' });
    });

    it('accepts the token in the Sec-WebSocket-Protocol header and the cursor in the query', async () => {
      const first = await feed(staff.idToken);
      const hello = first.messages[0] as { cursor: string };
      const client = await connectFeed(server.url, {
        protocols: [FEED_PROTOCOL, TOKEN_PROTOCOL_PREFIX + staff.idToken],
        query: `?cursor=${hello.cursor}`,
      });
      open.push(client);
      expect(client.ws.protocol).toBe(FEED_PROTOCOL); // never the token back
      await client.waitFor(hasHello);
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Header auth' } });
      const [event] = await client.waitForMatching(
        (e) => e.type === 'CategoryCreated' && (e.data as { name: string }).name === 'Header auth',
      );
      expect(event!.event).toMatchObject({ type: 'CategoryCreated', streamType: 'category' });
    });

    it('closes with tokenExpired when the token runs out, unless a refreshed one came first', async () => {
      // Emulator-style tokens for a real account, with a chosen expiry (the server runs in emulator mode).
      const tokenFor = (exp: number) => forgeToken({ user_id: staff.uid, sub: staff.uid, email: staff.email, exp });
      const expiring = await feed(tokenFor(now() + 3));
      const renewed = await feed(tokenFor(now() + 3));
      renewed.send({ type: 'reauth', token: tokenFor(now() + 3600) });

      expect(await expiring.closed).toEqual({ code: CLOSE_CODES.tokenExpired, reason: 'Token expired' });
      renewed.send({ type: 'ping' });
      await renewed.waitFor((m) => m.some((x) => x.type === 'pong'), 10_000, 'pong');
      expect(renewed.ws.readyState).toBe(renewed.ws.OPEN);
    });

    it('closes when a refreshed token belongs to someone else', async () => {
      const client = await feed(staff.idToken);
      client.send({ type: 'reauth', token: manager.idToken });
      expect(await client.closed).toEqual({
        code: CLOSE_CODES.forbidden,
        reason: 'The refreshed token is for another user',
      });
    });
  });

  describe('the connection', () => {
    it('refuses a handshake from an origin that is not allowed, accepts an allowed one', async () => {
      await expect(connectFeed(server.url, { token: staff.idToken, origin: 'https://evil.example' })).rejects.toThrow(
        'handshake refused with HTTP 403',
      );
      const allowed = await connectFeed(server.url, { token: staff.idToken, origin: server.config.allowedOrigins[0] });
      open.push(allowed);
      await allowed.waitFor(hasHello);
    });

    it('closes on a message over the size limit and on one that is not JSON', async () => {
      const big = await connectFeed(server.url);
      big.ws.send('x'.repeat(server.config.realtime.maxMessageBytes + 1));
      expect((await big.closed).code).toBe(1009);
      const garbled = await connectFeed(server.url);
      garbled.ws.send('{not json');
      expect((await garbled.closed).code).toBe(CLOSE_CODES.badMessage);
    });

    it('tells connected clients to come back (1012 service restart) when the server shuts down', async () => {
      const other = await startTestServer(backends()[0]!, { store: server.store });
      const client = await connectFeed(other.url, { token: staff.idToken });
      await client.waitFor(hasHello);
      await other.close();
      expect(await client.closed).toEqual({ code: 1012, reason: 'Server restarting' });
    });

    it('answers ping with pong', async () => {
      const client = await feed(guest.idToken);
      client.send({ type: 'ping' });
      await client.waitFor((m) => m.some((x) => x.type === 'pong'));
    });
  });

  describe('what each role sees', () => {
    it('a guest, and staff without users:view, never receive user events; a manager does', async () => {
      const [managerFeed, staffFeed, guestFeed] = [
        await feed(manager.idToken),
        await feed(staff.idToken),
        await feed(guest.idToken),
      ];
      const email = uniqueEmail('feed-secret');
      const created = await server.request('POST', '/api/users', {
        token: manager.idToken,
        body: { name: 'Secret Person', email, password: 'secret123', role: 'staff' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const role = await server.request('PUT', `/api/users/${created.body.id}/role`, {
        token: manager.idToken,
        body: { role: 'manager' },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      const settings = await server.request('PUT', '/api/settings', {
        token: manager.idToken,
        body: { storeName: 'Feed Store' },
      });
      expect(settings.status).toBe(200);
      // A fence: everything above was committed before this event.
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Fence' } });
      const fenced = (c: FeedClient) =>
        c.waitFor((m) =>
          m.some(
            (x) => x.type === 'event' && x.event.type === 'CategoryCreated' && (x.event.data as any).name === 'Fence',
          ),
        );
      await Promise.all([fenced(managerFeed), fenced(staffFeed), fenced(guestFeed)]);

      const types = (c: FeedClient) => c.events().map((e) => e.event.type);
      expect(types(managerFeed)).toEqual(
        expect.arrayContaining(['UserRegistered', 'UserRoleChanged', 'SettingsChanged', 'CategoryCreated']),
      );
      for (const client of [guestFeed, staffFeed]) {
        expect(client.events().filter((e) => e.event.streamType === 'user' || e.event.streamType === 'role')).toEqual(
          [],
        );
        expect(types(client)).toEqual(['SettingsChanged', 'CategoryCreated']);
        expect(JSON.stringify(client.messages)).not.toContain(email);
      }
    });

    it("a user without users:view receives their own account's events, and nobody else's", async () => {
      const email = uniqueEmail('feed-own');
      const created = await server.request('POST', '/api/users', {
        token: manager.idToken,
        body: { name: 'Own Events', email, password: 'secret123', role: 'staff' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const own = await signIn(email, 'secret123');
      const [ownFeed, staffFeed] = [await feed(own.idToken), await feed(staff.idToken)];
      const role = await server.request('PUT', `/api/users/${created.body.id}/role`, {
        token: manager.idToken,
        body: { role: 'manager' },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Own Fence' } });
      const fenced = (c: FeedClient) =>
        c.waitFor((m) =>
          m.some(
            (x) =>
              x.type === 'event' && x.event.type === 'CategoryCreated' && (x.event.data as any).name === 'Own Fence',
          ),
        );
      await Promise.all([fenced(ownFeed), fenced(staffFeed)]);
      const roleChanges = (c: FeedClient) => c.events().filter((e) => e.event.type === 'UserRoleChanged');
      expect(roleChanges(ownFeed).map((e) => e.event.stream)).toEqual([`user-${created.body.id}`]);
      expect(roleChanges(staffFeed)).toEqual([]);
      // In commit order: the role change before the category that followed it.
      const order = ownFeed.events().map((e) => e.event.type);
      expect(order.indexOf('UserRoleChanged')).toBeLessThan(order.indexOf('CategoryCreated'));
    });

    it('a guest sees low-stock alerts like everyone else', async () => {
      const guestFeed = await feed(guest.idToken);
      const category = await server.request('POST', '/api/categories', {
        token: manager.idToken,
        body: { name: 'Alerting' },
      });
      const item = await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: 'Cable Ties',
          sku: `CT-${Date.now()}`,
          category_id: category.body.id,
          quantity: 6,
          price: 2,
          threshold: 5,
        },
      });
      expect(item.status).toBe(201);
      const adjust = (delta: number) =>
        server.request('POST', `/api/inventory/${item.body.id}/adjust`, {
          token: staff.idToken,
          body: { delta, reason: delta < 0 ? 'sale' : 'restock' },
        });
      expect((await adjust(-2)).status).toBe(200); // 4 <= 5: low
      expect((await adjust(-1)).status).toBe(200); // still low: no second alert
      expect((await adjust(+5)).status).toBe(200); // 8 > 5: recovered
      await guestFeed.waitFor((m) => m.some((x) => x.type === 'alert-cleared'));
      const alerts = guestFeed.messages.filter((m) => m.type === 'alert' || m.type === 'alert-cleared');
      expect(alerts).toEqual([
        {
          type: 'alert',
          cursor: expect.any(String),
          item: { id: item.body.id, name: 'Cable Ties', sku: item.body.sku },
          quantity: 4,
          threshold: 5,
        },
        { type: 'alert-cleared', cursor: expect.any(String), itemId: item.body.id, quantity: 8, threshold: 5 },
      ]);
      // Each alert rides with its event and shares its cursor.
      const wentLow = guestFeed.events().find((e) => e.event.type === 'ItemWentLow')!;
      expect((alerts[0] as { cursor: string }).cursor).toBe(wentLow.cursor);
    });
  });

  describe('access taken away', () => {
    it('closes the connection of an account as soon as it is disabled', async () => {
      const staffFeed = await feed(staff.idToken);
      const res = await server.request('POST', `/api/users/${staff.uid}/disable`, { token: manager.idToken, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await staffFeed.closed).toEqual({ code: CLOSE_CODES.accountDisabled, reason: 'Account disabled' });
      // Reconnecting is refused too: the emulator itself already rejects a disabled account's
      // token (authRequired); with real Firebase the users projection refuses it (accountDisabled).
      const again = await connectFeed(server.url, { token: staff.idToken });
      expect([CLOSE_CODES.authRequired, CLOSE_CODES.accountDisabled]).toContain((await again.closed).code);
      expect(again.messages).toEqual([]);
    });

    it('closes guest connections as soon as guests are turned off', async () => {
      const guestFeed = await feed(guest.idToken);
      const managerFeed = await feed(manager.idToken);
      const res = await server.request('PUT', '/api/settings', {
        token: manager.idToken,
        body: { allowGuests: false },
      });
      expect(res.status).toBe(200);
      expect(await guestFeed.closed).toEqual({ code: CLOSE_CODES.guestsDisabled, reason: 'Guest access is disabled' });
      const newcomer = await connectFeed(server.url, { token: (await signInAnonymously()).idToken });
      expect((await newcomer.closed).code).toBe(CLOSE_CODES.guestsDisabled);
      managerFeed.send({ type: 'ping' });
      await managerFeed.waitFor((m) => m.some((x) => x.type === 'pong'));
    });
  });
});
