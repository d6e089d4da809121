// The deliverer's sender thread (webhook-sender.ts starts it): signs and POSTs the messages
// it is handed and reports each attempt back, so the HTTP client's and the signing's CPU
// are not spent on the app's event loop, where requests and (on PGlite) the database run.
// Both ways, messages travel in batches: the app posts what it started in one turn of its
// loop, and answers are reported every REPORT_EVERY_MS, not one by one (each crossing
// wakes the other thread, and that cost as much as a send).
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

/** From this thread to the app: attempts finished, by request number. */
export interface FromSender {
  done: Array<[number, Attempt]>;
}

/** Answers wait this long at most to travel together: a little lag, far fewer wake-ups. */
const REPORT_EVERY_MS = 2;

const port = parentPort;
if (port) {
  let done: Array<[number, Attempt]> = [];
  const report = () => {
    port.postMessage({ done } satisfies FromSender);
    done = [];
  };
  // Nothing to abandon here: a stopping app settles what it waits for and ends this thread.
  port.on('message', (sends: SendRequest[]) => {
    for (const request of sends) {
      void sendWebhook(request.url, request.secret, { id: request.id, body: request.body }, request.timeoutMs).then((attempt) => {
        done.push([request.n, attempt]);
        if (done.length === 1) setTimeout(report, REPORT_EVERY_MS);
      });
    }
  });
}
