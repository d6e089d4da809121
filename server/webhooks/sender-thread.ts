// The deliverer's sender thread (webhook-sender.ts starts it): keeps each endpoint run's
// queue (send-queue.ts), signs and POSTs its messages in order per stream and reports the
// attempts back, so the HTTP client's and the signing's CPU, and the choice of what goes
// next, are not spent on the app's event loop, where requests and (on PGlite) the database
// run. Both ways, messages travel in batches: the app posts what it handed over in one turn
// of its loop, and answers are reported every REPORT_EVERY_MS, not one by one (each
// crossing wakes the other thread and cost the app's loop about 60 us; per message, that
// was more than the message's delivery log row).
import { parentPort, workerData } from 'node:worker_threads';
import { connectGuard, type ConnectPolicy } from './connect-guard.js';
import { sendWebhook, type Attempt } from './send-webhook.js';
import { SendQueue, type QueuedMessage, type SendTarget } from './send-queue.js';

/** From the app to this thread: messages for a run's queue, or its end. */
export interface ToSender {
  job: number;
  /** With `add`: where the job's messages go. */
  target?: SendTarget;
  add?: QueuedMessage[];
  /** The run is over: start nothing more of this job (its unsent messages come back as null), and forget it once idle. */
  hold?: true;
}

/** From this thread to the app: answers by job and message number; null: not sent. */
export interface FromSender {
  done: Array<[job: number, n: number, attempt: Attempt | null]>;
}

/**
 * Answers wait this long at most to travel together. A stream's next message does not wait
 * for them (this thread starts it), so this only delays the run's bookkeeping (its cursor
 * and delivery log are written every 200 ms anyway).
 */
const REPORT_EVERY_MS = 20;

/** Where this thread may connect: the app's policy, given when it started the thread (webhook-sender.ts). */
const guard = connectGuard((workerData as ConnectPolicy | null) ?? { allowLoopback: false });

const sendOne = (target: SendTarget, m: QueuedMessage) => sendWebhook(target.url, target.secret, { id: m.id, body: m.body }, target.timeoutMs, guard);

const port = parentPort;
if (port) {
  /**
   * Each job's queue, kept until its run says it is over (`hold`). A queue that held itself
   * after a failed send stays too: the run hears of the failure only with the next report,
   * and what it hands over meanwhile must come back unsent. Forgotten early, such messages
   * went out on a fresh queue ahead of their streams' unsent ones (a stream's version 42
   * delivered while 7 to 41 waited for the retry), and the next run skipped them as delivered.
   */
  const queues = new Map<number, SendQueue>();
  /** Jobs whose run is over: their queue goes once nothing of it is in flight. */
  const ended = new Set<number>();
  let done: FromSender['done'] = [];
  const report = () => {
    port.postMessage({ done } satisfies FromSender);
    done = [];
  };
  const forgetIfOver = (job: number) => {
    if (ended.has(job) && queues.get(job)?.idle !== false) {
      queues.delete(job);
      ended.delete(job);
    }
  };
  const answer = (job: number, n: number, attempt: Attempt | null) => {
    if (done.push([job, n, attempt]) === 1) setTimeout(report, REPORT_EVERY_MS);
    forgetIfOver(job);
  };
  // Nothing to abandon here: a stopping app settles what it waits for and ends this thread.
  port.on('message', (ops: ToSender[]) => {
    for (const { job, target, add, hold } of ops) {
      let queue = queues.get(job);
      if (!queue && add && target) {
        queue = new SendQueue(target, sendOne, (n, attempt) => answer(job, n, attempt));
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
