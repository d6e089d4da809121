// A real HTTP endpoint for webhook tests: records every request it gets (headers, body,
// time, what it answered) and can be told to fail: refuse connections (closed), answer 500
// or 429, or answer only after a delay (always, or now and then). It keeps its port across close and reopen.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '../../shared/webhooks.js';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: WebhookPayload;
  at: number;
  answered: number;
}

export type Mode =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'slow'; delayMs: number }
  /** Every `every`th request is answered after `delayMs`, the rest at once. */
  | { kind: 'slowEvery'; every: number; delayMs: number };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  mode: Mode;
  /** Connection refused from now on. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Requests whose signature checks with this secret (throws on the first that does not). */
  verifyAll(secret: string): void;
  /** Distinct webhook-ids, in the order first seen. */
  distinctIds(): string[];
  waitFor(condition: (r: Receiver) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  let server: http.Server | null = null;
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    port,
    received: [],
    mode: { kind: 'ok' },
    async down() {
      if (!server) return;
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async up() {
      if (server) return;
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const mode = receiver.mode;
          const status = mode.kind === 'status' ? mode.status : 200;
          receiver.received.push({
            id: String(req.headers['webhook-id']),
            timestamp: String(req.headers['webhook-timestamp']),
            signature: String(req.headers['webhook-signature']),
            body,
            payload: JSON.parse(body) as WebhookPayload,
            at: Date.now(),
            answered: status,
          });
          const answer = () => {
            if (mode.kind === 'status' && mode.retryAfter) res.setHeader('retry-after', mode.retryAfter);
            res.statusCode = status;
            res.end('{}');
          };
          if (mode.kind === 'slow') setTimeout(answer, mode.delayMs);
          else if (mode.kind === 'slowEvery' && receiver.received.length % mode.every === 0)
            setTimeout(answer, mode.delayMs);
          else answer();
        });
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server!.listen(receiver.port, '127.0.0.1', () => resolve()));
      receiver.port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
    },
    verifyAll(secret) {
      const wh = new Webhook(secret);
      for (const r of receiver.received) {
        wh.verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });
      }
    },
    distinctIds() {
      return [...new Set(receiver.received.map((r) => r.id))];
    },
    async waitFor(condition, timeoutMs = 120_000, what = 'the receiver') {
      const deadline = Date.now() + timeoutMs;
      while (!condition(receiver)) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${what} (has ${receiver.received.length} requests, ${receiver.distinctIds().length} distinct)`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => receiver.down(),
  };
  await receiver.up();
  return receiver;
}
