// docs/architecture.md walks one stock adjustment from the button to the wall display, naming
// each file and function on the way: a newcomer follows those names, so each must exist. A
// rename or a move that leaves the page behind fails here.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(entry.name) ? [rel] : [];
  });
}

const files = ['client', 'server', 'shared', 'tests'].flatMap(sourceFiles);
const code = files
  .filter((f) => !f.startsWith('tests/'))
  .map((f) => readFileSync(path.join(root, f), 'utf8'))
  .join('\n');

/** The walkthrough section: from its heading to the next one. */
function walkthrough(): string {
  const start = page.indexOf('## One adjustment, from the button to the wall display');
  expect(start).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 3);
  return page.slice(start, end < 0 ? undefined : end);
}

const named = (text: string) => [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);

describe('the architecture page names only what exists', () => {
  it('every file it names is in the repository (by path, or by a unique name under it)', () => {
    const paths = [...new Set(named(page).filter((n) => /\.(ts|tsx)$/.test(n) && !n.includes('<')))];
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((n) => !files.some((f) => f === n || f.endsWith(`/${n}`)));
    expect(missing).toEqual([]);
  });

  it('every function the walkthrough names is in the code', () => {
    const section = walkthrough();
    const calls = [
      ...new Set(
        [...named(section), ...[...section.matchAll(/->>[^:]+: ([A-Za-z.]+)\(/g)].map((m) => m[1]!)]
          .map((n) => n.replace(/\(.*$/, ''))
          .filter((n) => /^[a-z][A-Za-z]+(\.[a-z][A-Za-z]+)?$/.test(n)),
      ),
    ];
    expect(calls.length).toBeGreaterThan(10);
    const missing = calls.filter((n) => !n.split('.').every((part) => new RegExp(`\\b${part}\\b`).test(code)));
    expect(missing).toEqual([]);
  });
});
