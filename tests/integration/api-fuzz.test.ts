// Property-based fuzzing of the whole API: every operation of the served OpenAPI document
// (so a route added later is fuzzed without touching this file) gets generated bad inputs
// (wrong types, missing and extra fields, huge and odd Unicode strings with NUL and lone
// surrogates, boundary numbers, malformed cursors, ids and dates, malformed JSON, wrong
// content types) as a manager, as staff and with no token. Each bad input is one good
// request with one part spoiled, so it reaches past the first check.
// It must hold for every request: no 5xx, an answer within REQUEST_TIMEOUT_MS, a refusal
// in the one error shape, and a refused request (4xx) leaves the store exactly as it was.
// Requests go through app.inject (no sockets). FUZZ_RUNS (per operation) and FUZZ_SEED
// make deeper or different runs: `FUZZ_RUNS=300 FUZZ_SEED=7 npx vitest run tests/integration/api-fuzz.test.ts`.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import {
  badFor,
  badValue,
  extraFieldName,
  MALFORMED_JSON_TEXTS,
  NASTY_STRINGS,
  queryText,
  RAW_URL_TEXTS,
  toJsonText,
  WRONG_CONTENT_TYPES,
} from '../helpers/bad-inputs.js';
import { sampleOf, type Schema } from '../helpers/schema-sample.js';
import { storeDigest, type StoreDigest } from '../helpers/store-digest.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { newMember, type SignedIn } from './accounts-fixtures.js';

/** Cases per operation with any part spoiled, and per field (each path, query and body field) on its own. */
const RUNS = Number(process.env.FUZZ_RUNS || 20);
const FIELD_RUNS = Number(process.env.FUZZ_FIELD_RUNS || 8);
const SEED = Number(process.env.FUZZ_SEED || 23);
const REQUEST_TIMEOUT_MS = 15_000;

type Caller = 'manager' | 'staff' | 'none';

interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/inventory/{id}. */
  path: string;
  pathParams: Array<{ name: string; schema: Schema }>;
  queryParams: Array<{ name: string; required: boolean; schema: Schema }>;
  body: Schema | null;
}

/** A bad value: any at all, or the n-th of those aimed at the field's schema (badFor). */
type Bad = { any: unknown } | { fit: number };

/** What to spoil, as plain data (so fast-check can shrink and replay it). */
type Plan =
  | { part: 'path'; param: number; value: string }
  | { part: 'query'; kind: 'value'; param: number; value: Bad }
  | { part: 'query'; kind: 'raw'; param: number; value: string }
  | { part: 'query'; kind: 'extra'; name: string; value: unknown }
  | { part: 'query'; kind: 'repeat' | 'drop'; param: number }
  | { part: 'body'; kind: 'field'; at: number; value: Bad }
  | { part: 'body'; kind: 'extra'; at: number; name: string; value: unknown }
  | { part: 'body'; kind: 'missing'; at: number }
  | { part: 'body'; kind: 'whole'; value: unknown }
  | { part: 'body'; kind: 'text'; text: string }
  | { part: 'body'; kind: 'content-type'; contentType: string };

interface Fixtures {
  itemId: string;
  categoryId: string;
  barcode: string;
  roleId: string;
  victimUid: string;
  webhookId: string;
  tokenId: string;
  stocktakeId: string;
  eventId: string;
}

function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const params: any[] = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

/** A real id for a path parameter: by its name, else by the collection it follows. */
function realId(op: Operation, name: string, f: Fixtures): string {
  if (name === 'itemId') return f.itemId;
  if (name === 'eventId') return f.eventId;
  if (name === 'code') return f.barcode;
  const segments = op.path.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1];
  const byCollection: Record<string, string> = {
    inventory: f.itemId,
    categories: f.categoryId,
    users: f.victimUid,
    roles: f.roleId,
    webhooks: f.webhookId,
    tokens: f.tokenId,
    stocktakes: f.stocktakeId,
    alerts: f.itemId,
  };
  return byCollection[collection ?? ''] ?? f.itemId;
}

/** Real values for body and query fields that name fixtures (or need a future moment). */
function pickField(f: Fixtures) {
  return (name: string, schema: Schema): unknown => {
    if (['category_id', 'categoryId'].includes(name)) return f.categoryId;
    if (name === 'itemId') return f.itemId;
    if (name === 'itemIds') return [f.itemId];
    if (name === 'importId') return randomUUID();
    if (name === 'expiresAt') return new Date(Date.now() + 86_400_000).toISOString();
    if (name === 'role' && schema.type === 'string') return 'staff';
    if (name === 'from' || name === 'asOf') return new Date(Date.now() - 3_600_000).toISOString();
    if (name === 'streamId') return `item-${f.itemId}`;
    return undefined;
  };
}

/** Every place in a JSON value, as paths of keys (the root is []). */
function placesOf(value: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => placesOf(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) placesOf(v, [...at, k], out);
  return out;
}

function setAt(
  root: unknown,
  at: Array<string | number>,
  change: (parent: any, key: string | number) => void,
): unknown {
  if (at.length === 0) return root;
  let parent: any = root;
  for (const key of at.slice(0, -1)) parent = parent[key];
  change(parent, at.at(-1)!);
  return root;
}

const bad: fc.Arbitrary<Bad> = fc.oneof(
  badValue.map((any) => ({ any })),
  fc.nat(1000).map((fit) => ({ fit })),
);

function resolve(value: Bad, schema: Schema | undefined, name: string): unknown {
  if ('any' in value) return value.any;
  const aimed = badFor(schema, name);
  return aimed[value.fit % aimed.length];
}

/** The schema of the value at `at` inside a value of `schema` (first branch of a oneOf). */
function schemaAt(schema: Schema | null, at: Array<string | number>): Schema | undefined {
  let s: Schema | undefined = schema ?? undefined;
  for (const key of at) {
    if (!s) return undefined;
    if (Array.isArray(s.oneOf)) s = { ...s, ...s.oneOf[0], properties: { ...s.properties, ...s.oneOf[0].properties } };
    s = typeof key === 'number' ? s!.items : s!.properties?.[key];
  }
  return s;
}

/** A path parameter's text: odd strings (encoded), raw and broken percent-encodings, unknown uuids. */
const pathValue = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS).map(queryText),
  fc.constantFrom(...RAW_URL_TEXTS),
  fc.uuid().map(String),
  fc.string({ unit: 'binary', maxLength: 30 }).map(queryText),
);

function planArbitrary(op: Operation): fc.Arbitrary<Plan> {
  const options: Array<fc.Arbitrary<Plan>> = [];
  const anyIndex = fc.nat(1000);
  if (op.pathParams.length)
    options.push(fc.record({ part: fc.constant('path' as const), param: anyIndex, value: pathValue }));
  options.push(
    fc.record({
      part: fc.constant('query' as const),
      kind: fc.constant('extra' as const),
      name: extraFieldName.map(String),
      value: badValue,
    }),
  );
  if (op.queryParams.length) {
    options.push(
      fc.record({
        part: fc.constant('query' as const),
        kind: fc.constant('value' as const),
        param: anyIndex,
        value: bad,
      }),
      fc.record({
        part: fc.constant('query' as const),
        kind: fc.constant('raw' as const),
        param: anyIndex,
        value: fc.constantFrom(...RAW_URL_TEXTS),
      }),
      fc.record({
        part: fc.constant('query' as const),
        kind: fc.constantFrom('repeat' as const, 'drop' as const),
        param: anyIndex,
      }),
    );
  }
  if (op.body || op.method !== 'GET') {
    const body = fc.constant('body' as const);
    options.push(
      fc.record({ part: body, kind: fc.constant('field' as const), at: anyIndex, value: bad }),
      fc.record({
        part: body,
        kind: fc.constant('extra' as const),
        at: anyIndex,
        name: extraFieldName.map(String),
        value: badValue,
      }),
      fc.record({ part: body, kind: fc.constant('missing' as const), at: anyIndex }),
      fc.record({ part: body, kind: fc.constant('whole' as const), value: badValue }),
      fc.record({ part: body, kind: fc.constant('text' as const), text: fc.constantFrom(...MALFORMED_JSON_TEXTS) }),
      fc.record({
        part: body,
        kind: fc.constant('content-type' as const),
        contentType: fc.constantFrom(...WRONG_CONTENT_TYPES),
      }),
    );
  }
  return fc.oneof(...options);
}

/** Bad values aimed at the field's schema, now and then any bad value at all. */
const aimed: fc.Arbitrary<Bad> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(1000).map((fit) => ({ fit })) },
  { weight: 1, arbitrary: badValue.map((any) => ({ any })) },
);

/** One plan per field of the operation: each path parameter, query parameter and body place. */
function fieldPlans(op: Operation, f: Fixtures): Array<{ name: string; plan: fc.Arbitrary<Plan> }> {
  const plans: Array<{ name: string; plan: fc.Arbitrary<Plan> }> = [];
  op.pathParams.forEach((p, param) =>
    plans.push({
      name: `path ${p.name}`,
      plan: fc.record({ part: fc.constant('path' as const), param: fc.constant(param), value: pathValue }),
    }),
  );
  op.queryParams.forEach((q, param) =>
    plans.push({
      name: `query ${q.name}`,
      plan: fc.record({
        part: fc.constant('query' as const),
        kind: fc.constant('value' as const),
        param: fc.constant(param),
        value: aimed,
      }),
    }),
  );
  if (op.body) {
    const sample = sampleOf(op.body, 'body', { pick: pickField(f), unique: () => 'x', all: true });
    placesOf(sample)
      .filter((at) => at.length > 0)
      .forEach((at, index) =>
        plans.push({
          name: `body ${at.join('.')}`,
          plan: fc.record({
            part: fc.constant('body' as const),
            kind: fc.constant('field' as const),
            at: fc.constant(index),
            value: aimed,
          }),
        }),
      );
  }
  return plans;
}

interface Built {
  url: string;
  payload?: string;
  contentType?: string;
}

/** One request: good in every part except the one the plan spoils. */
function build(op: Operation, plan: Plan, f: Fixtures, unique: () => string): Built {
  const ctx = { pick: pickField(f), unique };
  // Path: real ids (never for DELETE: a fixture deleted early would blunt every later case).
  let path = op.path;
  op.pathParams.forEach((p, i) => {
    const spoiled = plan.part === 'path' && plan.param % op.pathParams.length === i;
    const value = spoiled
      ? plan.value
      : op.method === 'DELETE'
        ? randomUUID()
        : encodeURIComponent(realId(op, p.name, f));
    path = path.replace(`{${p.name}}`, value);
  });
  // Query: required parameters and a good value for each; then the plan's change.
  const pairs: Array<[string, string]> = op.queryParams
    .filter((q) => q.required || q.name === 'asOf' || q.name === 'cursor' || q.name === 'from')
    .filter((q) => q.name !== 'cursor') // a good cursor only comes from a page
    .map((q) => [q.name, queryText(sampleOf(q.schema, q.name, ctx))]);
  if (plan.part === 'query' && op.queryParams.length && plan.kind !== 'extra') {
    const q = op.queryParams[plan.param % op.queryParams.length]!;
    const at = pairs.findIndex(([name]) => name === q.name);
    if (plan.kind === 'drop') {
      if (at >= 0) pairs.splice(at, 1);
    } else if (plan.kind === 'repeat') {
      const value = at >= 0 ? pairs[at]![1] : queryText(sampleOf(q.schema, q.name, ctx));
      pairs.push([q.name, value], [q.name, value]);
    } else {
      const value =
        plan.kind === 'raw'
          ? plan.value
          : plan.kind === 'value'
            ? queryText(resolve(plan.value, q.schema, q.name))
            : '';
      if (at >= 0) pairs[at] = [q.name, value];
      else pairs.push([q.name, value]);
    }
  }
  if (plan.part === 'query' && plan.kind === 'extra') pairs.push([queryText(plan.name), queryText(plan.value)]);
  const query = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  const url = query ? `${path}?${query}` : path;

  if (!op.body && op.method === 'GET') return { url };
  let body: unknown = op.body ? sampleOf(op.body, 'body', ctx) : {};
  let contentType = 'application/json';
  if (plan.part === 'body') {
    const places = placesOf(body);
    const inner = places.filter((p) => p.length > 0);
    switch (plan.kind) {
      case 'field': {
        // Places of a sample with every optional field; the one aimed at joins the required ones.
        const full = sampleOf(op.body ?? undefined, 'body', { ...ctx, all: true });
        const fullInner = placesOf(full).filter((p) => p.length > 0);
        const at = fullInner[plan.at % Math.max(fullInner.length, 1)] ?? [];
        const top = at[0];
        if (top !== undefined && body && typeof body === 'object' && !(top in body))
          (body as any)[top] = (full as any)[top];
        const value = resolve(plan.value, schemaAt(op.body, at), String(at.at(-1) ?? 'body'));
        if (at.length) setAt(body, at, (parent, key) => (parent[key] = value));
        else body = value;
        break;
      }
      case 'extra': {
        const objects = places.filter((p) => {
          let v: any = body;
          for (const k of p) v = v[k];
          return v && typeof v === 'object' && !Array.isArray(v);
        });
        const target = objects[plan.at % Math.max(objects.length, 1)] ?? [];
        let v: any = body;
        for (const k of target) v = v[k];
        if (v && typeof v === 'object')
          Object.defineProperty(v, plan.name, {
            value: plan.value,
            enumerable: true,
            configurable: true,
            writable: true,
          });
        break;
      }
      case 'missing':
        if (inner.length)
          setAt(body, inner[plan.at % inner.length]!, (parent, key) =>
            Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key],
          );
        else body = undefined;
        break;
      case 'whole':
        body = plan.value;
        break;
      case 'text':
        return { url, payload: plan.text, contentType };
      case 'content-type':
        contentType = plan.contentType;
        break;
    }
  }
  return { url, payload: body === undefined ? undefined : toJsonText(body), contentType };
}

/** A stable number per operation, so one operation's cases do not depend on the others'. */
const seedOf = (key: string) => [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, SEED) % 2_147_483_647;

const preview = (text: string | undefined) =>
  text === undefined ? '(none)' : JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);

describe.each(backends())('API fuzz on $name', (backend) => {
  let server: TestServer;
  let operations: Operation[];
  let tokens: Record<Caller, string | undefined>;
  let fixtures: Fixtures;
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const manager: SignedIn = await newMember(server, { name: 'Fuzz Manager' });
    const staff: SignedIn = await newMember(server, { name: 'Fuzz Staff' });
    const victim: SignedIn = await newMember(server, { name: 'Fuzz Victim' });
    tokens = { manager: manager.idToken, staff: staff.idToken, none: undefined };
    const as = async (method: string, url: string, body: unknown) => {
      const res = await server.request(method, url, { token: manager.idToken, body });
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    const category = await as('POST', '/api/categories', { name: 'Fuzz category' });
    const item = await as('POST', '/api/inventory', {
      name: 'Fuzz item',
      sku: 'FZ-1',
      category_id: category.id,
      quantity: 10,
      price: 2,
      threshold: 1,
      barcode: '4006381333931',
    });
    await as('POST', `/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'restock' });
    const role = await as('POST', '/api/roles', {
      name: 'Fuzz role',
      description: 'For the fuzz test',
      permissions: ['inventory:view'],
    });
    const { endpoint: webhook } = await as('POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/fuzz',
      eventTypes: ['*'],
    });
    // Switched off, so the deliverer leaves it alone (its replay and test still run).
    await as('PATCH', `/api/webhooks/${webhook.id}`, { enabled: false });
    const { apiToken: token } = await as('POST', '/api/tokens', {
      name: 'Fuzz token',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      permissions: ['inventory:view'],
    });
    const stocktake = await as('POST', '/api/stocktakes', { scope: 'category', categoryId: category.id });
    const adjusted = await sql<{
      event_id: string;
    }>`select event_id::text from events where type = 'StockAdjusted' limit 1`.execute(server.store.database.db);
    fixtures = {
      itemId: item.id,
      categoryId: category.id,
      barcode: '4006381333931',
      roleId: role.id,
      victimUid: victim.uid,
      webhookId: webhook.id,
      tokenId: token.id,
      stocktakeId: stocktake.id,
      eventId: adjusted.rows[0]!.event_id,
    };
    const docs = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    operations = operationsOf(docs.json());
  });
  afterAll(() => server?.close());

  it('reads every operation from the served OpenAPI document', () => {
    // A guard on the walk itself: routes of each feature are there, with their parameters.
    const keys = operations.map((o) => `${o.method} ${o.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/inventory',
        'POST /api/inventory',
        'POST /api/webhooks/{id}/replay',
        'GET /api/activity',
      ]),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(
      Object.values(fixtures).every((v) => typeof v === 'string' && v.length > 0),
      JSON.stringify(fixtures),
    ).toBe(true);
  });

  /** Sends one planned request; throws what is wrong with its answer. */
  async function check(
    op: Operation,
    who: Caller,
    plan: Plan,
    seen: { digest: StoreDigest; statuses: Record<number, number> },
  ) {
    const request = build(op, plan, fixtures, unique);
    const headers: Record<string, string> = {};
    if (tokens[who]) headers.authorization = `Bearer ${tokens[who]}`;
    if (request.payload !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    const said = `${op.method} ${request.url} as ${who}, content-type ${headers['content-type'] ?? '(none)'}, body ${preview(request.payload)}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${said}`)),
        REQUEST_TIMEOUT_MS,
      );
    });
    const answer = server.app.inject({ method: op.method as any, url: request.url, headers, payload: request.payload });
    const res = await Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
    seen.statuses[res.statusCode] = (seen.statuses[res.statusCode] ?? 0) + 1;
    const after = await storeDigest(server.store.database.db);
    const changed = JSON.stringify(after) !== JSON.stringify(seen.digest);
    seen.digest = after; // a success may change the store: the next case starts from here
    if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)} for ${said}`);
    if (res.statusCode < 400) return;
    let error: unknown;
    try {
      error = res.json().error;
    } catch {
      /* not JSON: reported below */
    }
    if (typeof error !== 'string' || !error)
      throw new Error(`${res.statusCode} without { error } (${preview(res.body)}) for ${said}`);
    if (changed) throw new Error(`${res.statusCode} ${error}, yet the store changed, for ${said}`);
  }

  it(
    'answers every bad input with a 4xx in the error shape, in time, and a refusal changes nothing',
    async () => {
      const seen = { digest: await storeDigest(server.store.database.db), statuses: {} as Record<number, number> };
      const failures: string[] = [];
      let cases = 0;
      for (const op of operations) {
        const key = `${op.method} ${op.path}`;
        // Any part spoiled, by anyone; then each field on its own, by a manager (who gets furthest).
        const anyone = fc.constantFrom<Caller>('manager', 'manager', 'manager', 'staff', 'none');
        const runs: Array<{ name: string; plans: fc.Arbitrary<[Caller, Plan]>; numRuns: number }> = [
          { name: 'any part', plans: fc.tuple(anyone, planArbitrary(op)), numRuns: RUNS },
          ...fieldPlans(op, fixtures).map(({ name, plan }) => ({
            name,
            plans: fc.tuple(fc.constant<Caller>('manager'), plan),
            numRuns: FIELD_RUNS,
          })),
        ];
        for (const { name, plans, numRuns } of runs) {
          cases += numRuns;
          try {
            await fc.assert(
              fc.asyncProperty(plans, ([who, plan]) => check(op, who, plan, seen)),
              { numRuns, seed: seedOf(`${key} ${name}`) },
            );
          } catch (error) {
            // fast-check's report (seed, counterexample) and, as its cause, what the request got.
            const report = (error as Error).message.split('\n').filter((line) => line && !line.startsWith('Hint:'));
            const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : '';
            failures.push(`${key}, ${name} (FUZZ_SEED=${SEED}):\n${[...report.slice(0, 4), cause].join('\n')}`);
          }
        }
      }
      console.info(
        `API fuzz on ${backend.name}: ${operations.length} operations, ${cases} cases, statuses ${JSON.stringify(seen.statuses)}`,
      );
      expect(failures, failures.join('\n\n')).toEqual([]);
    },
    15 * 60_000,
  );
});
