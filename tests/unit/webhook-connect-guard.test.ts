// The connect-time check (connect-guard.ts, through sendWebhook): a host name is resolved
// and judged before any socket exists, so a name that resolves to a private address is
// refused without a packet sent, and the attempt says only "refused: private address".
// The resolver is stubbed, and every socket opening is watched: a socket for anything other
// than 127.0.0.1 fails the test and is never really opened (nothing leaves 127.0.0.0/8).
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectGuard, type Resolve } from '../../server/webhooks/connect-guard.js';
import { closeConnections, sendWebhook } from '../../server/webhooks/send-webhook.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const message = { id: 'msg_1', body: '{"type":"webhook.test"}' };
const REFUSED = { ok: false, retryable: true, status: null, error: 'refused: private address' };

/** Every socket a send asked for, by the address it would reach. */
let sockets: string[] = [];

/** A stub resolver answering from a fixed list, counting questions. */
function stubResolver(answers: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`no stub answer for ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(resolve, { asked });
}

beforeEach(() => {
  sockets = [];
  // A socket to anything but 127.0.0.1 is recorded and never opened.
  const guardSocket = <T extends (...args: any[]) => any>(real: T) =>
    ((options: net.NetConnectOpts & { lookup?: net.LookupFunction }, ...rest: unknown[]) => {
      const host = 'host' in options ? String(options.host) : '';
      let addresses: string[] = [host];
      if (!net.isIP(host) && options.lookup) {
        options.lookup(
          host,
          { all: true },
          (_error, found) => (addresses = (found as Array<{ address: string }>).map((a) => a.address)),
        );
      }
      sockets.push(...addresses);
      if (!addresses.every((a) => a.startsWith('127.')))
        throw new Error(`test tried to connect to ${addresses.join(', ')}`);
      return real(options, ...rest);
    }) as unknown as T;
  const realNet = net.connect.bind(net);
  const realTls = tls.connect.bind(tls);
  vi.spyOn(net, 'connect').mockImplementation(guardSocket(realNet));
  vi.spyOn(tls, 'connect').mockImplementation(guardSocket(realTls));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('webhook connect-time address check', () => {
  it('refuses a name that resolves to a private address before any socket is opened', async () => {
    const resolve = stubResolver({ 'hooks.example.test': ['10.0.0.5'] });
    const attempt = await sendWebhook(
      'https://hooks.example.test/hook',
      SECRET,
      message,
      2000,
      connectGuard({ allowLoopback: false }, resolve),
    );
    expect(attempt).toMatchObject(REFUSED);
    expect(resolve.asked).toEqual(['hooks.example.test']);
    expect(sockets).toEqual([]);
    expect(net.connect).not.toHaveBeenCalled();
    expect(tls.connect).not.toHaveBeenCalled();
  });

  it('refuses when any one of the answers is private, for IPv4 and IPv6 answers', async () => {
    const resolve = stubResolver({
      'mixed.example.test': ['8.8.8.8', '192.168.0.10'],
      'v6.example.test': ['2606:4700:4700::1111', 'fd00::5'],
      'mapped.example.test': ['::ffff:169.254.169.254'],
      'metadata.example.test': ['169.254.169.254'],
    });
    for (const host of ['mixed', 'v6', 'mapped', 'metadata']) {
      const attempt = await sendWebhook(
        `https://${host}.example.test/hook`,
        SECRET,
        message,
        2000,
        connectGuard({ allowLoopback: true }, resolve),
      );
      expect(attempt, host).toMatchObject(REFUSED);
    }
    expect(sockets).toEqual([]);
  });

  it('refuses an IP literal saved before the URL check existed, without asking DNS', async () => {
    const resolve = stubResolver({});
    for (const url of [
      'https://10.0.0.5/hook',
      'http://169.254.169.254/latest',
      'https://[fd00::5]:8443/hook',
      'https://[::ffff:a00:5]/hook',
    ]) {
      expect(
        await sendWebhook(url, SECRET, message, 2000, connectGuard({ allowLoopback: true }, resolve)),
        url,
      ).toMatchObject(REFUSED);
    }
    expect(resolve.asked).toEqual([]);
    expect(sockets).toEqual([]);
  });

  it('refuses loopback outside emulator/demo mode and connects to the checked address in it', async () => {
    let connections = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const resolve = stubResolver({ 'receiver.example.test': ['127.0.0.1'] });
      const url = `http://receiver.example.test:${port}/hook`;

      expect(
        await sendWebhook(url, SECRET, message, 2000, connectGuard({ allowLoopback: false }, resolve)),
      ).toMatchObject(REFUSED);
      expect(
        await sendWebhook(
          `http://127.0.0.1:${port}/hook`,
          SECRET,
          message,
          2000,
          connectGuard({ allowLoopback: false }, resolve),
        ),
      ).toMatchObject(REFUSED);
      expect(connections).toBe(0);
      expect(sockets).toEqual([]);

      // The name exists only in the stub: the socket used the stub's checked answer, not DNS.
      const allowed = connectGuard({ allowLoopback: true }, resolve);
      expect(await sendWebhook(url, SECRET, message, 2000, allowed)).toMatchObject({ ok: true, status: 200 });
      expect(connections).toBe(1);
      expect(sockets).toEqual(['127.0.0.1']);
      expect(resolve.asked).toEqual(['receiver.example.test', 'receiver.example.test']);
      await closeConnections(allowed);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('counts a slow lookup against the timeout and opens nothing', async () => {
    const never: Resolve = () => new Promise(() => undefined);
    const attempt = await sendWebhook(
      'https://slow.example.test/hook',
      SECRET,
      message,
      200,
      connectGuard({ allowLoopback: false }, never),
    );
    expect(attempt).toMatchObject({ ok: false, retryable: true, error: 'Timed out after 200 ms' });
    expect(sockets).toEqual([]);
  });

  it('answers from the policy host list before DNS (how integration tests stub DNS for the deliverer)', async () => {
    const dns = stubResolver({});
    const guard = connectGuard({ allowLoopback: false, hosts: { 'hooks.example.test': ['10.0.0.5'] } }, dns);
    expect(await guard.resolve('HOOKS.example.test')).toEqual([{ address: '10.0.0.5', family: 4 }]);
    expect(await sendWebhook('https://hooks.example.test/', SECRET, message, 2000, guard)).toMatchObject(REFUSED);
    expect(dns.asked).toEqual([]);
    expect(sockets).toEqual([]);
  });
});
