// Opens a URL in a page, waits until the network has been quiet for a moment (bounded, since
// a screen that floods the server never goes quiet), then lists the API requests the page
// sends while nobody touches it, and how busy its main thread was meanwhile.
import type { CDPSession, Page, Request } from 'playwright-core';

export interface IdleOptions {
  /** Quiet means no request in flight, none started and the main thread resting for this long. */
  quietMs: number;
  /** Give up waiting for quiet after this long (the idle window is measured anyway). */
  settleMaxMs: number;
  /** How long the page is watched once settled. */
  idleMs: number;
}

export interface IdleReport {
  /** Where the page ended up (a guard may have redirected). */
  finalPath: string;
  settled: boolean;
  settleMs: number;
  /** API requests started during the idle window: method and path with query. */
  requests: string[];
  /** Whether the page was visible (a hidden one's timers are throttled). */
  visible: boolean;
  /** Share of the idle window the page's main thread spent running tasks (0..1). */
  busy: number;
}

const TICK_MS = 100;
/** A tick with more than this share of it spent running tasks counts as activity. */
const BUSY_TICK = 0.3;

/** Requests to our API over HTTP; the live feed is one WebSocket (/api/ws), not requests. */
function apiRequest(request: Request, origin: string): string | null {
  const url = new URL(request.url());
  if (url.origin !== origin || !url.pathname.startsWith('/api/') || url.pathname === '/api/ws') return null;
  return `${request.method()} ${url.pathname}${url.search}`;
}

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

/** Share of the next `ms` the page's main thread spends running tasks (0..1); needs Performance.enable. */
export async function busyShare(cdp: CDPSession, ms: number): Promise<number> {
  const before = await taskSeconds(cdp);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return ((await taskSeconds(cdp)) - before) / (ms / 1000);
}

export async function openAndWatchIdle(
  page: Page,
  cdp: CDPSession,
  url: string,
  origin: string,
  options: IdleOptions,
): Promise<IdleReport> {
  const inFlight = new Set<Request>();
  let lastActivity = Date.now();
  let window: string[] | null = null;
  const started = (request: Request) => {
    inFlight.add(request);
    lastActivity = Date.now();
    const api = apiRequest(request, origin);
    if (api && window) window.push(api);
  };
  const ended = (request: Request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const opened = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    // Quiet also means a resting main thread: on a loaded machine, parsing the next chunk
    // can take longer than the quiet time and is followed by more of the screen's requests.
    let settled = false;
    let busyBefore = await taskSeconds(cdp);
    while (Date.now() - opened < options.settleMaxMs) {
      await page.waitForTimeout(TICK_MS);
      const busy = await taskSeconds(cdp);
      if (busy - busyBefore > (TICK_MS / 1000) * BUSY_TICK) lastActivity = Date.now();
      busyBefore = busy;
      if (inFlight.size === 0 && Date.now() - lastActivity >= options.quietMs) {
        settled = true;
        break;
      }
    }
    const settleMs = Date.now() - opened;
    window = [];
    const busy = await busyShare(cdp, options.idleMs);
    const visible = await page.evaluate(() => document.visibilityState === 'visible');
    return { finalPath: new URL(page.url()).pathname, settled, settleMs, requests: window, visible, busy };
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

export interface Tab {
  page: Page;
  cdp: CDPSession;
}

/** A few signed-in tabs, lent out one screen at a time. */
export class TabPool {
  private readonly free: Tab[] = [];
  private readonly waiting: ((tab: Tab) => void)[] = [];

  add(tab: Tab): void {
    const next = this.waiting.shift();
    if (next) next(tab);
    else this.free.push(tab);
  }

  async use<T>(work: (tab: Tab) => Promise<T>): Promise<T> {
    const tab = this.free.pop() ?? (await new Promise<Tab>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(tab);
    } finally {
      this.add(tab);
    }
  }
}
