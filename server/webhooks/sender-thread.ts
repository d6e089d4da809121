// The deliverer's sender thread (webhook-sender.ts starts it): keeps each endpoint run's
// queue (send-queue.ts), signs and POSTs its messages and reports the attempts back, so the
// HTTP client's and the signing's CPU is not spent on the app's event loop, where requests
// and (on PGlite) the database run. Messages travel in batches both ways: each crossing
// wakes the other thread and costs the app's loop about as much as a message's delivery.
import { parentPort, workerData } from 'node:worker_threads';
import { connectGuard, type ConnectPolicy } from './connect-guard.js';
import { sendWebhook, type Attempt } from './send-webhook.js';
import { ANSWER_EVERY_MS, SendQueue, type Outgoing, type SendTarget } from './send-queue.js';

export interface QueuedMessage extends Outgoing {
  /** The app's number for it: answers carry it. */
  n: number;
}

/** From the app: messages for a run's queue, or its end (start nothing more, forget it once idle). */
export interface ToSender {
  job: number;
  /** With `add`: where the job's messages go. */
  target?: SendTarget;
  add?: QueuedMessage[];
  hold?: true;
}

/** To the app: answers by job and message number; null: not sent. */
export interface FromSender {
  done: Array<[job: number, n: number, attempt: Attempt | null]>;
}

const guard = connectGuard((workerData as ConnectPolicy | null) ?? { allowLoopback: false });
const port = parentPort;
if (port) {
  /**
   * Each job's queue, kept until its run says it is over (`hold`), even one that held itself
   * after a failed send: the run hears of the failure only with the next report, and what it
   * hands over meanwhile must come back unsent, not go out ahead of its stream's retry.
   */
  const queues = new Map<number, SendQueue<QueuedMessage>>();
  const ended = new Set<number>();
  const done: FromSender['done'] = [];
  const report = () => port.postMessage({ done: done.splice(0) } satisfies FromSender);
  const forgetIfOver = (job: number) => {
    if (ended.has(job) && queues.get(job)?.idle !== false) {
      queues.delete(job);
      ended.delete(job);
    }
  };
  port.on('message', (ops: ToSender[]) => {
    for (const { job, target, add, hold } of ops) {
      let queue = queues.get(job);
      if (!queue && add && target) {
        const send = (m: QueuedMessage) => sendWebhook(target.url, target.secret, m, target.timeoutMs, guard);
        queue = new SendQueue(target.inFlight, send, (m, attempt) => {
          if (done.push([job, m.n, attempt]) === 1) setTimeout(report, ANSWER_EVERY_MS);
          forgetIfOver(job);
        });
        queues.set(job, queue);
      }
      if (add) queue?.add(add);
      if (hold) {
        queue?.hold();
        ended.add(job);
        forgetIfOver(job);
      }
    }
  });
}
