// What a screen reads first, as its page asks for it (same path, same query), so the router
// can start those reads with the app for a returning user (client/lib/first-data.ts). Only
// screens opened without a query (a sort or a moment in the URL reads something else); a
// path that no longer matches what the page asks only costs one unused request, and
// tests/unit/first-screen-data.test.ts keeps them equal.
const FIRST_READS: [RegExp, (match: RegExpMatchArray) => string[]][] = [
  [/^\/dashboard\/?$/, () => ['/dashboard']],
  // The Category page starts sorted by name, first page of 12 (category-page.tsx, PAGE_SIZE).
  [
    /^\/inventory\/category\/([0-9a-f-]{36})\/?$/,
    ([, id]) => [`/categories/${id}`, `/categories/${id}/items?sort=name&order=asc&page=1&pageSize=12`],
  ],
];

export function firstScreenReads(pathname: string, search: string): string[] {
  if (search) return [];
  for (const [path, reads] of FIRST_READS) {
    const match = pathname.match(path);
    if (match) return reads(match);
  }
  return [];
}
