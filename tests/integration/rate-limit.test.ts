// Rate limits as a shop sees them, over real HTTP (keep-alive) from one address: page loads
// (assets, index.html, client routes) and health checks never count; API calls do, per
// signed-in user when signed in and per address otherwise, so staff behind one router each
// have their own budget. A failed sign-in counts against its address. Behind a reverse proxy
// (TRUST_PROXY) the address is the client's from X-Forwarded-For, and only then.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { buildClientForTests } from '../helpers/e2e-build.js';
import { forgeToken } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

function call(base: string, urlPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(urlPath, base), { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` calls, 16 in flight; the answers in order of issue. */
async function many(count: number, next: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = new Array(count);
  let i = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (i < count) {
        const n = i++;
        answers[n] = await next(n);
      }
    }),
  );
  return answers;
}

const statuses = (answers: Answer[]) => {
  const tally: Record<number, number> = {};
  for (const a of answers) tally[a.status] = (tally[a.status] ?? 0) + 1;
  return tally;
};

describe('rate limits', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('with the default budget of 1,200 a minute', () => {
    let clientDir: string;
    beforeAll(async () => {
      clientDir = await buildClientForTests();
    }, 180_000);

    it('1,300 page-load requests from one address pass; 1,300 API calls from it are cut at 1,200', async () => {
      // RATE_LIMIT_PER_MINUTE unset: the shipped default.
      server = await startTestServer(
        { name: 'pglite' },
        { env: { RATE_LIMIT_PER_MINUTE: '' }, context: { clientDir } },
      );
      expect(server.config.rateLimitPerMinute).toBe(1200);
      const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.some((a) => a.startsWith('/assets/'))).toBe(true);
      const pageLoad = [...assets, '/', '/inventory', '/dashboard', '/robots.txt', '/favicon.svg', '/api/health'];

      const loads = await many(1300, (i) =>
        call(server!.url, pageLoad[i % pageLoad.length]!, { 'accept-encoding': 'br' }),
      );
      expect(statuses(loads)).toEqual({ 200: 1300 });

      const api = await many(1300, () => call(server!.url, '/api/client-config'));
      expect(statuses(api)).toEqual({ 200: 1200, 429: 100 });
      const refused = api.find((a) => a.status === 429)!;
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(refused.body).error).toMatch(/^Too many requests\. Try again in \d+ seconds$/);

      // The address's API budget is spent; its pages and health checks still load.
      expect((await call(server.url, '/inventory')).status).toBe(200);
      expect((await call(server.url, '/api/health')).status).toBe(200);
    });

    it('two signed-in users on one address each get their own 1,200, apart from the address', async () => {
      server = await startTestServer({ name: 'pglite' }, { env: { RATE_LIMIT_PER_MINUTE: '' } });
      const [ana, ben] = await Promise.all([
        accountWithRole(server, 'staff', 'Ana Staff'),
        accountWithRole(server, 'staff', 'Ben Staff'),
      ]);
      const as = (token: string) => () => call(server!.url, '/api/me', { authorization: `Bearer ${token}` });

      expect(statuses(await many(1201, as(ana.idToken)))).toEqual({ 200: 1200, 429: 1 });
      // Ana's budget is spent; Ben, behind the same router, has all of his.
      expect(statuses(await many(1201, as(ben.idToken)))).toEqual({ 200: 1200, 429: 1 });
      // Neither spent the address's budget for calls made without signing in.
      expect((await call(server.url, '/api/client-config')).status).toBe(200);
    });
  });

  it('counts failed sign-ins against the address, not against anyone signed in there', async () => {
    server = await startTestServer({ name: 'pglite' }, { env: { RATE_LIMIT_PER_MINUTE: '5' } });
    const staff = await accountWithRole(server, 'staff', 'Sam Staff');
    const forged = { authorization: `Bearer ${forgeToken({ aud: 'another-project' })}` };

    const attempts = await many(7, () => call(server!.url, '/api/me', forged));
    expect(statuses(attempts)).toEqual({ 401: 5, 429: 2 });
    expect(Number(attempts.find((a) => a.status === 429)!.retryAfter)).toBeGreaterThan(0);
    // The address is spent for calls without a valid sign-in...
    expect((await call(server.url, '/api/client-config')).status).toBe(429);
    expect((await call(server.url, '/api/me')).status).toBe(429);
    // ...but a signed-in user there has their own budget.
    expect((await call(server.url, '/api/me', { authorization: `Bearer ${staff.idToken}` })).status).toBe(200);
  });

  it('with TRUST_PROXY, takes the client address from X-Forwarded-For; without it, ignores the header', async () => {
    const from = (ip: string) => () => call(server!.url, '/api/client-config', { 'x-forwarded-for': ip });

    server = await startTestServer(
      { name: 'pglite' },
      { env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' } },
    );
    expect(statuses(await many(4, from('203.0.113.7')))).toEqual({ 200: 3, 429: 1 });
    expect(statuses(await many(3, from('203.0.113.8')))).toEqual({ 200: 3 });
    await server.close();

    // Facing clients directly, a client could otherwise claim a new address per request.
    server = await startTestServer({ name: 'pglite' }, { env: { RATE_LIMIT_PER_MINUTE: '3' } });
    expect(statuses(await many(4, (i) => from(`203.0.113.${i + 1}`)()))).toEqual({ 200: 3, 429: 1 });
  });

  it('reads TRUST_PROXY as false, true, a hop count or proxy addresses, and refuses anything else', () => {
    const env = (TRUST_PROXY?: string) => ({
      FIREBASE_PROJECT_ID: 'demo-x',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      TRUST_PROXY,
    });
    expect(loadConfig(env()).trustProxy).toBe(false);
    expect(loadConfig(env('false')).trustProxy).toBe(false);
    expect(loadConfig(env('true')).trustProxy).toBe(true);
    expect(loadConfig(env('10.0.0.1, 10.1.0.0/16,loopback')).trustProxy).toBe('10.0.0.1,10.1.0.0/16,loopback');
    const hops = loadConfig(env('2')).trustProxy as (address: string, hop: number) => boolean;
    expect([hops('10.0.0.1', 0), hops('10.0.0.1', 1), hops('10.0.0.1', 2)]).toEqual([true, true, false]);
    expect(() => loadConfig(env('proxy.example.com'))).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig(env('10.0.0.0/33'))).toThrow(/TRUST_PROXY/);
  });
});
