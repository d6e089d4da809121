// The client's route table (client/app/route-table.ts) as URLs to open: each route once
// bare, once with each optional query parameter (each example), and once with all of them,
// its `:params` and `{placeholders}` filled with real ids. A route added to the table is
// opened by every test that uses this, without touching the test.
import type { AppRoute } from '../../client/app/route-table.js';

/** Values for the table's placeholders: `{item}` -> samples.item. */
export type RouteSamples = Record<'item' | 'category' | 'stocktake' | 'moment', string>;

export interface RouteUrl {
  /** The route's pattern, as declared. */
  route: string;
  url: string;
}

/** Where the catch-all route `*` is opened. */
export const UNKNOWN_PATH = '/no-such-screen';

function fill(example: string, samples: RouteSamples, route: string): string {
  return example.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (samples as Record<string, string>)[name];
    if (value === undefined)
      throw new Error(`Route ${route}: no sample for {${name}} (add one to RouteSamples and the test's setup)`);
    return value;
  });
}

function pathOf(route: AppRoute, samples: RouteSamples): string {
  if (route.path === '*') return UNKNOWN_PATH;
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const example = route.params?.[name];
    if (example === undefined) throw new Error(`Route ${route.path}: no example for :${name} (declare it in params)`);
    return encodeURIComponent(fill(example, samples, route.path));
  });
}

/** Every URL to open for one route: bare, each query example alone, all parameters together. */
export function urlsOf(route: AppRoute, samples: RouteSamples): RouteUrl[] {
  const path = pathOf(route, samples);
  const query = Object.entries(route.query ?? {}).map(([name, examples]) => ({
    name,
    values: (typeof examples === 'string' ? [examples] : [...examples]).map((example) =>
      fill(example, samples, route.path),
    ),
  }));
  const searches = [new URLSearchParams()];
  for (const { name, values } of query)
    for (const value of values) searches.push(new URLSearchParams({ [name]: value }));
  if (query.length > 1) searches.push(new URLSearchParams(query.map(({ name, values }) => [name, values[0] ?? ''])));
  return searches.map((search) => ({ route: route.path, url: search.size ? `${path}?${search}` : path }));
}
