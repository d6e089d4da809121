// Lighthouse 12 on the production server as `npm start` runs it (built client, demo store,
// auth emulator): the landing page, and signed in as the demo manager the dashboard and a
// category page, each on mobile (Lighthouse's default: Moto G Power, slow 4G, 4x CPU, all
// simulated) and desktop. Each score is the median of BENCH_LIGHTHOUSE_RUNS runs (default 3)
// with a cold HTTP cache. Reports go to test-results/lighthouse/ for a closer look.
//
// Chromium comes from chrome-launcher (CHROMIUM_PATH or /usr/bin/chromium); the sign-in runs
// in that same browser through playwright-core, so Lighthouse's tabs share the signed-in
// profile (Lighthouse clears the HTTP cache between runs, not IndexedDB where Firebase keeps
// the session). `npm run bench lighthouse` runs this suite alone (about 6 minutes).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config as LighthouseConfig, type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { loadConfig } from '../../server/config.js';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { startServer } from '../../server/main.js';
import { DEMO_LOGINS } from '../../server/seed/demo-accounts.js';
import type { Row } from './bench-kit.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const reportDir = path.join(root, 'test-results', 'lighthouse');
const TARGETS = { mobile: 95, desktop: 98, accessibility: 100 };
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const ms = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? NaN;
const fmtS = (v: number) => `${(v / 1000).toFixed(1)} s`;

/** What a score short of its target is made of: the failing audits, largest savings first. */
function shortfalls(lhr: Result): string[] {
  const lines: string[] = [];
  for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) lines.push(`a11y: ${audit.title}`);
  }
  const opportunities = Object.values(lhr.audits)
    .filter((a) => a.details?.type === 'opportunity' && a.score !== null && a.score < 1 && (a.numericValue ?? 0) > 0)
    .sort((a, b) => (b.numericValue ?? 0) - (a.numericValue ?? 0));
  for (const a of opportunities.slice(0, 4))
    lines.push(`perf: ${a.title} (${a.displayValue ?? `${Math.round(a.numericValue ?? 0)} ms`})`);
  return lines;
}

/**
 * A production build of its own: the tests' shared build (dist/e2e-client) is rebuilt by
 * any test run that finds it stale, and a chunk replaced mid-measurement reloads the page.
 */
function buildClient(outDir: string): string {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`Client build failed:\n${result.stdout}\n${result.stderr}`);
  return outDir;
}

export async function lighthouseBench(log: (line: string) => void = console.error): Promise<Row[]> {
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3);
  const work = await mkdtemp(path.join(os.tmpdir(), 'stockroom-lighthouse-'));
  const cleanups: Array<() => Promise<unknown>> = [async () => rm(work, { recursive: true, force: true })];
  try {
    log('  lighthouse: building the client, starting the auth emulator and the server...');
    const clientDir = buildClient(path.join(work, 'client'));
    const [emulatorPort, port] = await Promise.all([freePort(), freePort()]);
    const emulator = await startAuthEmulator({
      projectId: 'demo-stockroom-lighthouse',
      port: emulatorPort,
      stateDir: path.join(work, 'auth-emulator'),
      persist: false,
    });
    cleanups.unshift(() => emulator.stop());
    const origin = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      FIREBASE_PROJECT_ID: 'demo-stockroom-lighthouse',
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      SEED_DEMO: 'true',
      ALLOWED_ORIGINS: origin,
      LOG_LEVEL: 'warn',
    });
    const server = await startServer(config, { clientDir });
    cleanups.unshift(() => server.close());

    await mkdir(path.join(work, 'profile'));
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
      userDataDir: path.join(work, 'profile'),
    });
    cleanups.unshift(async () => chrome.kill());

    const manager = DEMO_LOGINS.find((l) => l.role === 'manager')!;
    const categoryPath = await biggestCategoryPath(origin, emulator.host, manager.email, manager.password);
    // The landing page as a first-time visitor sees it: a browser that was signed in is sent on to /dashboard.
    // BENCH_LIGHTHOUSE_PAGES (landing,dashboard,category) and BENCH_LIGHTHOUSE_FORMS
    // (mobile,desktop) narrow a run while working on one page; unset, everything runs.
    const wanted = (name: string, list = process.env.BENCH_LIGHTHOUSE_PAGES) => !list || list.split(',').includes(name);
    const pages = [
      { name: 'landing page', path: '/', signedIn: false },
      { name: 'dashboard (signed in)', path: '/dashboard', signedIn: true },
      { name: 'category page (signed in)', path: categoryPath, signedIn: true },
    ].filter((page) => wanted(page.name.split(' ')[0]!));

    await mkdir(reportDir, { recursive: true });
    const rows: Row[] = [];
    let signedIn = false;
    for (const page of pages) {
      if (page.signedIn && !signedIn) {
        await signIn(chrome.port, origin, manager.email, manager.password);
        signedIn = true;
      }
      for (const formFactor of (['mobile', 'desktop'] as const).filter((f) =>
        wanted(f, process.env.BENCH_LIGHTHOUSE_FORMS),
      )) {
        const results: Result[] = [];
        for (let run = 0; run < runs; run++) {
          const flags: Flags = {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility'],
          };
          const lighthouseConfig: LighthouseConfig | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
          let result = await lighthouse(origin + page.path, flags, lighthouseConfig);
          // Lighthouse 12 with this Chromium now and then finds no navigation start in its
          // trace (NO_NAVSTART, NO_FCP) on a page that loaded fine; measuring again gets it.
          for (let retry = 0; retry < 3 && result?.lhr.runtimeError; retry++) {
            log(`  lighthouse: ${page.path} ${formFactor}: ${result.lhr.runtimeError.code}, again`);
            result = await lighthouse(origin + page.path, flags, lighthouseConfig);
          }
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          if (result.lhr.runtimeError)
            throw new Error(`Lighthouse on ${page.path}: ${result.lhr.runtimeError.message}`);
          if (new URL(result.lhr.finalDisplayedUrl).pathname !== page.path) {
            throw new Error(`Lighthouse on ${page.path} ended on ${result.lhr.finalDisplayedUrl}: not signed in?`);
          }
          results.push(result.lhr);
        }
        // The run with the median performance score stands for the page (its metrics and report).
        const perf = median(results.map((r) => score(r, 'performance')));
        const lhr = results.find((r) => score(r, 'performance') === perf)!;
        const a11y = median(results.map((r) => score(r, 'accessibility')));
        const slug = `${page.name.split(' ')[0]}-${formFactor}`;
        await writeFile(path.join(reportDir, `${slug}.json`), JSON.stringify(lhr));
        const target = formFactor === 'mobile' ? TARGETS.mobile : TARGETS.desktop;
        log(
          `  lighthouse: ${page.name}, ${formFactor}: performance ${results.map((r) => score(r, 'performance')).join('/')}, ` +
            `accessibility ${a11y}`,
        );
        if (perf < target || a11y < TARGETS.accessibility) for (const line of shortfalls(lhr)) log(`    ${line}`);
        rows.push({
          benchmark: `Lighthouse ${page.name}, ${formFactor} (median of ${runs})`,
          result:
            `performance ${perf}, accessibility ${a11y} (FCP ${fmtS(ms(lhr, 'first-contentful-paint'))}, ` +
            `LCP ${fmtS(ms(lhr, 'largest-contentful-paint'))}, TBT ${Math.round(ms(lhr, 'total-blocking-time'))} ms, ` +
            `CLS ${ms(lhr, 'cumulative-layout-shift').toFixed(3)})`,
          target: `performance >= ${target}, accessibility ${TARGETS.accessibility}`,
        });
      }
    }
    return rows;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error) => log(`  lighthouse: cleanup: ${String(error)}`));
  }
}

/**
 * Signs the demo manager in through the real login form, in the browser's default context
 * (the profile Lighthouse's tabs use).
 */
async function signIn(debugPort: number, origin: string, email: string, password: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${origin}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard', { timeout: 60_000 });
    await page.close();
  } finally {
    // Disconnects only: the browser and its default context (with the session) stay.
    await browser.close();
  }
}

/** The category with the most items, asked of the API as the demo manager. */
async function biggestCategoryPath(
  origin: string,
  emulatorHost: string,
  email: string,
  password: string,
): Promise<string> {
  const signInUrl = `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`;
  const auth = await fetch(signInUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const { idToken } = (await auth.json()) as { idToken: string };
  const res = await fetch(`${origin}/api/categories`, { headers: { authorization: `Bearer ${idToken}` } });
  if (!res.ok) throw new Error(`GET /api/categories: ${res.status} ${await res.text()}`);
  const categories = (await res.json()) as Array<{ id: string; itemCount: number }>;
  if (!categories.length) throw new Error('The demo store has no category to measure');
  return `/inventory/category/${categories.reduce((a, b) => (b.itemCount > a.itemCount ? b : a)).id}`;
}
