// Webhooks may not reach into the server's own network. Two servers per
// backend: one as in emulator/demo mode (loopback allowed, as the other webhook tests need)
// and one whose webhooks run as outside it. Saving an endpoint refuses internal addresses in
// any notation with a 400; sending refuses, before connecting, a name that resolves to one.
// Names under example.test are answered by the servers' host list (a stub resolver that
// also reaches the deliverer); nothing here connects outside 127.0.0.0/8:
// endpoints that could lead elsewhere are saved switched off, and the in-process socket
// openings are watched and refused for any other address.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, testConfig, type TestServer } from '../helpers/test-server.js';

const FAST = {
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '300',
  WEBHOOK_RETRY_FOR_MS: '60000',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '5000',
  WEBHOOK_POLL_MS: '200',
};
const HOSTS = { 'hooks.example.test': ['10.0.0.5'], 'loopback.example.test': ['127.0.0.1'] };
const MESSAGE = { error: 'Webhook URL must not point to a private or local address' };

const LOOPBACK = [
  'https://127.0.0.1/hook',
  'https://2130706433/hook',
  'https://0x7f000001/hook',
  'https://0177.0.0.1/hook',
  'https://127.1/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://localhost/hook',
  'http://127.0.0.1:9/hook',
];
const PRIVATE = [
  'https://10.0.0.5/hook',
  'https://0xa000005/hook',
  'https://172.16.0.1/hook',
  'https://192.168.1.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://224.0.0.1/hook',
  'https://[fc00::1]/hook',
  'https://[fe80::1]/hook',
  'https://[::ffff:10.0.0.5]/hook',
];

/** A TCP listener on 127.0.0.1 that only counts connections (a TLS hello gets no answer). */
async function countingListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(backends())('webhook addresses on $name', { timeout: 180_000 }, (backend) => {
  /** Emulator/demo mode: loopback allowed. */
  let local: TestServer;
  /** Webhooks as outside emulator/demo mode (the rest of the server still signs in through the emulator). */
  let strict: TestServer;
  let localManager: TestAccount;
  let strictManager: TestAccount;

  beforeAll(async () => {
    const localConfig = testConfig(FAST);
    localConfig.webhooks = { ...localConfig.webhooks, hostOverrides: HOSTS };
    local = await startTestServer(backend, { env: FAST, context: { config: localConfig } });
    const strictConfig = testConfig(FAST);
    strictConfig.webhooks = { ...strictConfig.webhooks, allowLocalHttp: false, hostOverrides: HOSTS };
    strict = await startTestServer(backend, { env: FAST, context: { config: strictConfig } });
    localManager = await accountWithRole(local, 'manager');
    strictManager = await accountWithRole(strict, 'manager');
  });
  afterAll(async () => {
    await local?.close();
    await strict?.close();
  });

  const on = (server: TestServer) => {
    const token = server === local ? localManager.idToken : strictManager.idToken;
    return {
      create: (body: Record<string, unknown>) =>
        server.request('POST', '/api/webhooks', { token, body: { eventTypes: ['*'], enabled: false, ...body } }),
      update: (id: string, body: Record<string, unknown>) =>
        server.request('PATCH', `/api/webhooks/${id}`, { token, body }),
      get: (id: string) => server.request('GET', `/api/webhooks/${id}`, { token }),
      remove: (id: string) => server.request('DELETE', `/api/webhooks/${id}`, { token }),
      test: (id: string) => server.request('POST', `/api/webhooks/${id}/test`, { token, body: {} }),
      deliveries: async (
        id: string,
      ): Promise<Array<{ messageId: string; eventType: string; status: string; error: string | null }>> =>
        (await server.request('GET', `/api/webhooks/${id}/deliveries`, { token })).body.deliveries,
      post: (path: string, body: unknown) => server.request('POST', path, { token, body }),
    };
  };

  it('create and update refuse internal addresses in every notation with a 400; a public name is accepted', async () => {
    const api = on(strict);
    const saved = await api.create({ url: 'https://hooks.example.com/stockroom' });
    expect(saved.status).toBe(201);
    const id = saved.body.endpoint.id;
    for (const url of [...LOOPBACK, ...PRIVATE]) {
      expect(await api.create({ url }), url).toMatchObject({ status: 400, body: MESSAGE });
      expect(await api.update(id, { url }), url).toMatchObject({ status: 400, body: MESSAGE });
    }
    const moved = await api.update(id, { url: 'https://other.example.com/in' });
    expect(moved.status).toBe(200);
    expect((await api.get(id)).body.url).toBe('https://other.example.com/in');
    expect((await api.remove(id)).status).toBe(204);
  });

  it('in emulator/demo mode, loopback may be saved and private addresses may not', async () => {
    const api = on(local);
    for (const url of LOOPBACK) {
      const res = await api.create({ url });
      expect(res.status, url).toBe(201);
      expect((await api.remove(res.body.endpoint.id)).status).toBe(204);
    }
    const saved = await api.create({ url: 'https://hooks.example.com/stockroom' });
    for (const url of PRIVATE) {
      expect(await api.create({ url }), url).toMatchObject({ status: 400, body: MESSAGE });
      expect(await api.update(saved.body.endpoint.id, { url }), url).toMatchObject({ status: 400, body: MESSAGE });
    }
    await api.remove(saved.body.endpoint.id);
  });

  it('a name that resolves to a private address is refused before any socket is opened', async () => {
    const api = on(local);
    // Saved: a name says nothing about its address until it is resolved.
    const saved = await api.create({ url: 'https://hooks.example.test/hook' });
    expect(saved.status).toBe(201);
    const id = saved.body.endpoint.id;
    const opened: string[] = [];
    const watch = <T extends (...args: any[]) => any>(real: T) =>
      ((options: { host?: string; lookup?: net.LookupFunction }, ...rest: unknown[]) => {
        let addresses = [String(options.host)];
        if (options.lookup && !net.isIP(String(options.host))) {
          options.lookup(
            String(options.host),
            { all: true },
            (_e, found) => (addresses = (found as Array<{ address: string }>).map((a) => a.address)),
          );
        }
        if (!addresses.every((a) => a.startsWith('127.') || a === 'localhost')) {
          opened.push(...addresses);
          throw new Error(`the test refuses a socket to ${addresses.join(', ')}`);
        }
        return real(options, ...rest);
      }) as unknown as T;
    const netConnect = vi.spyOn(net, 'connect').mockImplementation(watch(net.connect.bind(net)));
    const tlsConnect = vi.spyOn(tls, 'connect').mockImplementation(watch(tls.connect.bind(tls)));
    try {
      const test = await api.test(id);
      expect(test.status).toBe(202);
      await until(async () =>
        (await api.deliveries(id)).some((d) => d.messageId === test.body.messageId && d.status === 'failed'),
      );
      expect((await api.deliveries(id)).find((d) => d.messageId === test.body.messageId)).toMatchObject({
        status: 'failed',
        error: 'refused: private address',
      });
      expect(opened).toEqual([]);
      expect(tlsConnect.mock.calls.filter(([o]) => (o as { host?: string }).host === 'hooks.example.test')).toEqual([]);
    } finally {
      netConnect.mockRestore();
      tlsConnect.mockRestore();
      await api.remove(id);
    }
  });

  it('the deliverer refuses a name resolving to loopback outside emulator/demo mode, and reaches it in that mode', async () => {
    const listener = await countingListener();
    try {
      const url = `https://loopback.example.test:${listener.port}/hook`;
      for (const server of [strict, local]) {
        const api = on(server);
        const category = (await api.post('/api/categories', { name: `Hooks ${Date.now()}` })).body.id;
        const saved = await api.create({ url, eventTypes: ['item.created'], categoryIds: [category], enabled: true });
        expect(saved.status).toBe(201);
        const id = saved.body.endpoint.id;
        const item = await api.post('/api/inventory', {
          name: 'Probe',
          sku: `PROBE-${Date.now()}`,
          category_id: category,
          quantity: 1,
          price: 1,
          threshold: 0,
        });
        expect(item.status).toBe(201);
        if (server === strict) {
          await until(async () =>
            (await api.deliveries(id)).some(
              (d) => d.eventType === 'item.created' && d.error === 'refused: private address',
            ),
          );
          // The log says only that, whatever the attempt: no errno, no port.
          expect(new Set((await api.deliveries(id)).map((d) => d.error))).toEqual(
            new Set(['refused: private address']),
          );
          expect(listener.connections()).toBe(0);
        } else {
          await until(async () => listener.connections() > 0);
          expect((await api.deliveries(id)).every((d) => d.error !== 'refused: private address')).toBe(true);
        }
        await api.remove(id);
      }
    } finally {
      await listener.close();
    }
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
