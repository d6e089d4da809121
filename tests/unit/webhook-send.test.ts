// One webhook attempt over undici (send-webhook.ts): what a receiver
// gets (headers, body, a signature that checks), connection reuse, the framings an answer
// may use, and the failures the retry policy tells apart.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { connectGuard } from '../../server/webhooks/connect-guard.js';
import { closeConnections, sendWebhook } from '../../server/webhooks/send-webhook.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** These receivers listen on 127.0.0.1: loopback allowed, as in emulator/demo mode. */
const LOCAL = connectGuard({ allowLoopback: true });
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await closeConnections(LOCAL);
  for (const close of closers.splice(0)) await close();
});

async function listen(server: net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

/** A server that answers every request with `answer` (raw bytes, written in `pieces` parts), counting connections. */
async function rawServer(
  answer: string,
  pieces = 1,
): Promise<{ url: string; connections: () => number; requests: string[] }> {
  let connections = 0;
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    connections += 1;
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        requests.push(buffered.slice(0, end + 4 + length));
        buffered = buffered.slice(end + 4 + length);
        const bytes = Buffer.from(answer, 'latin1');
        const size = Math.ceil(bytes.length / pieces);
        for (let i = 0; i < bytes.length; i += size) socket.write(bytes.subarray(i, i + size));
        if (/connection: close/i.test(answer) || answer.startsWith('HTTP/1.0')) socket.end();
      }
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/hook?x=1`, connections: () => connections, requests };
}

const message = (n: number) => ({
  id: `msg_${n}`,
  body: JSON.stringify({ type: 'stock.adjusted', data: { n, note: 'café ☕' } }),
});

describe('sendWebhook over undici', () => {
  it('sends signed, complete requests over a few kept-alive connections', async () => {
    const got: Array<{ headers: http.IncomingHttpHeaders; body: string; url: string }> = [];
    let connections = 0;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url! });
        res.end('{"ok":true}');
      });
    });
    server.on('connection', () => (connections += 1));
    const port = await listen(server);
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 200) {
          const attempt = await sendWebhook(
            `http://127.0.0.1:${port}/in/hook?a=b`,
            SECRET,
            message(next++),
            5000,
            LOCAL,
          );
          expect(attempt).toMatchObject({ ok: true, status: 200, error: null });
        }
      }),
    );
    expect(got).toHaveLength(200);
    expect(connections).toBeLessThanOrEqual(4);
    const wh = new Webhook(SECRET);
    for (const r of got) {
      expect(r.url).toBe('/in/hook?a=b');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.host).toBe(`127.0.0.1:${port}`);
      expect(r.headers['user-agent']).toBe('Stockroom-Webhooks/1');
      expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
      const verified = wh.verify(r.body, r.headers as Record<string, string>) as { data: { note: string } };
      expect(verified.data.note).toBe('café ☕');
    }
  });

  it('reads answers by length, in chunks (split anywhere), after 1xx, and until close', async () => {
    const answers = [
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
      'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n',
      'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n',
      'HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n',
    ];
    for (const answer of answers) {
      for (const pieces of [1, 7, answer.length]) {
        const server = await rawServer(answer, pieces);
        for (let i = 0; i < 3; i++) {
          const attempt = await sendWebhook(server.url, SECRET, message(i), 2000, LOCAL);
          expect(attempt.ok, `${JSON.stringify(answer)} in ${pieces}: ${attempt.error}`).toBe(true);
        }
        // Complete answers keep the connection.
        expect(server.connections()).toBe(1);
        expect(server.requests[0]).toMatch(/^POST \/hook\?x=1 HTTP\/1\.1\r\n/);
      }
    }
    // No length: the body ends with the connection, which is not reused.
    const closing = await rawServer('HTTP/1.0 200 OK\r\n\r\nbye');
    for (let i = 0; i < 2; i++) expect((await sendWebhook(closing.url, SECRET, message(i), 2000, LOCAL)).ok).toBe(true);
    expect(closing.connections()).toBe(2);
    const closed = await rawServer('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}');
    for (let i = 0; i < 2; i++) expect((await sendWebhook(closed.url, SECRET, message(i), 2000, LOCAL)).ok).toBe(true);
    expect(closed.connections()).toBe(2);
  });

  it('tells apart what to retry: 429 with Retry-After, 5xx, 4xx, timeouts, refused connections', async () => {
    const busy = await rawServer('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n');
    expect(await sendWebhook(busy.url, SECRET, message(1), 2000, LOCAL)).toMatchObject({
      ok: false,
      retryable: true,
      status: 429,
      retryAfterMs: 7000,
    });
    const broken = await rawServer('HTTP/1.1 503 Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(await sendWebhook(broken.url, SECRET, message(1), 2000, LOCAL)).toMatchObject({
      ok: false,
      retryable: true,
      status: 503,
    });
    const refusing = await rawServer('HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n');
    expect(await sendWebhook(refusing.url, SECRET, message(1), 2000, LOCAL)).toMatchObject({
      ok: false,
      retryable: false,
      status: 410,
    });
    const silent = net.createServer(() => undefined);
    const silentPort = await listen(silent);
    const started = performance.now();
    const timedOut = await sendWebhook(`http://127.0.0.1:${silentPort}/`, SECRET, message(1), 300, LOCAL);
    expect(timedOut).toMatchObject({ ok: false, retryable: true, status: null, error: 'Timed out after 300 ms' });
    expect(performance.now() - started).toBeLessThan(2000);
    const gone = net.createServer();
    const gonePort = await listen(gone);
    closers.pop();
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    expect(await sendWebhook(`http://127.0.0.1:${gonePort}/`, SECRET, message(1), 2000, LOCAL)).toMatchObject({
      ok: false,
      retryable: true,
      error: 'Network error: ECONNREFUSED',
    });
  });

  it('sends once more on a fresh connection when a kept-alive one was closed by the receiver', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests += 1;
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    // The receiver closes idle connections after 50 ms, long before ours expire.
    server.keepAliveTimeout = 50;
    const port = await listen(server);
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; i < 5; i++) {
      expect((await sendWebhook(url, SECRET, message(i), 2000, LOCAL)).ok).toBe(true);
      await new Promise((r) => setTimeout(r, 120));
    }
    expect(requests).toBe(5);
  });
});
