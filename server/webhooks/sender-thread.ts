// The deliverer's sender thread (webhook-sender.ts starts it): signs and POSTs the messages
// it is handed and reports each attempt back, so the HTTP client's and the signing's CPU
// are not spent on the app's event loop, where requests and (on PGlite) the database run.
// Requests and answers travel in batches: one message per turn of each thread's loop.
import { parentPort } from 'node:worker_threads';
import { sendWebhook, type Attempt } from './send-webhook.js';

export interface SendRequest {
  n: number;
  url: string;
  secret: string;
  id: string;
  body: string;
  timeoutMs: number;
}

/** From the app to this thread: messages to send, and sends to abandon (the instance is stopping). */
export interface ToSender {
  sends?: SendRequest[];
  abort?: number[];
}

/** From this thread to the app: attempts finished, by request number. */
export interface FromSender {
  done: Array<[number, Attempt]>;
}

const port = parentPort;
if (port) {
  const inFlight = new Map<number, AbortController>();
  let done: Array<[number, Attempt]> = [];
  const report = () => {
    port.postMessage({ done } satisfies FromSender);
    done = [];
  };
  port.on('message', (message: ToSender) => {
    for (const n of message.abort ?? []) inFlight.get(n)?.abort();
    for (const request of message.sends ?? []) {
      const controller = new AbortController();
      inFlight.set(request.n, controller);
      void sendWebhook(request.url, request.secret, { id: request.id, body: request.body }, request.timeoutMs, controller.signal).then((attempt) => {
        inFlight.delete(request.n);
        done.push([request.n, attempt]);
        if (done.length === 1) setImmediate(report);
      });
    }
  });
}
