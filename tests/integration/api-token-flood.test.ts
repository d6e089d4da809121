// Guessing API tokens: every srk_ token is looked up in the database, so a flood of made-up
// ones must not cost a query each. Once an address has spent its budget on failed sign-ins,
// its srk_ requests are answered 429 before any lookup. Lookups are counted by
// watching the app's own queries go by (a Kysely plugin that only counts).
import { randomBytes } from 'node:crypto';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { newMember } from './accounts-fixtures.js';

const BUDGET = 5;
const madeUpToken = () => `srk_${randomBytes(32).toString('base64url')}`;

/** Counts the statements that look an API token up by its hash. */
function tokenLookups(): { plugin: KyselyPlugin; count: () => number } {
  let lookups = 0;
  const isLookup = (node: RootOperationNode) =>
    node.kind === 'RawNode' &&
    (node as { sqlFragments: readonly string[] }).sqlFragments.join('?').includes('from api_tokens where token_hash');
  return {
    plugin: {
      transformQuery: ({ node }) => {
        if (isLookup(node)) lookups += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    },
    count: () => lookups,
  };
}

describe.each(backends())('a flood of made-up API tokens on $name', (backend) => {
  let server: TestServer | undefined;
  let store: TestStore | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
    server = store = undefined;
  });

  async function start() {
    store = await openTestStore(backend);
    const lookups = tokenLookups();
    server = await startTestServer(backend, {
      store,
      // TRUST_PROXY: the test plays clients at two addresses through X-Forwarded-For.
      env: { RATE_LIMIT_PER_MINUTE: String(BUDGET), TRUST_PROXY: 'true' },
      context: { database: { ...store.database, db: store.database.db.withPlugin(lookups.plugin) } },
    });
    return { server, lookups };
  }

  it('gets 429 once the address has spent its budget, with no database lookup per request', async () => {
    const { server, lookups } = await start();
    const answers = [];
    for (let i = 0; i < 40; i++) {
      answers.push(
        await server.request('GET', '/api/inventory', {
          token: madeUpToken(),
          headers: { 'x-forwarded-for': '203.0.113.7' },
        }),
      );
    }
    expect(answers.slice(0, BUDGET).map((a) => [a.status, a.body.error])).toEqual(
      Array(BUDGET).fill([401, 'Invalid API token']),
    );
    for (const answer of answers.slice(BUDGET)) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatch(/^Too many requests/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The budget's worth of lookups, and not one for the 35 requests after it.
    expect(lookups.count()).toBe(BUDGET);
  });

  it('leaves other addresses alone: a real token from another address is looked up and works', async () => {
    const { server, lookups } = await start();
    const manager = await newMember(server, { name: 'Flood Manager' });
    const created = await server.request('POST', '/api/tokens', {
      token: manager.idToken,
      body: {
        name: 'Till',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        permissions: ['inventory:view'],
      },
      headers: { 'x-forwarded-for': '198.51.100.2' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (let i = 0; i < 20; i++)
      await server.request('GET', '/api/inventory', {
        token: madeUpToken(),
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
    const before = lookups.count();
    const till = await server.request('GET', '/api/inventory', {
      token: created.body.token,
      headers: { 'x-forwarded-for': '198.51.100.2' },
    });
    expect(till.status).toBe(200);
    expect(lookups.count()).toBe(before + 1);
    // The flooding address stays refused, even with the real token.
    const fromFlood = await server.request('GET', '/api/inventory', {
      token: created.body.token,
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(fromFlood.status).toBe(429);
  });
});
