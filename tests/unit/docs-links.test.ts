// Every relative link in README.md, SECURITY.md and docs/*.md leads somewhere: the file it
// names exists, and a #fragment names a heading of that file (GitHub's anchors: lower case,
// punctuation dropped, spaces as hyphens). A page moved or a heading renamed fails here, not
// in a reader's browser. Links inside fenced code blocks and to other sites are left alone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = [
  'README.md',
  'SECURITY.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function withoutFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings, duplicates numbered as it does. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative link targets of a page: [text](target) and ![alt](target), titles dropped. */
export function relativeLinks(markdown: string): string[] {
  const links = [...withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1]!,
  );
  return links.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function brokenLinks(page: string): string[] {
  const file = path.join(root, page);
  const broken: string[] = [];
  for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
    const [target, fragment] = link.split('#') as [string, string | undefined];
    const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
    if (!existsSync(resolved)) {
      broken.push(`${link}: no such file`);
      continue;
    }
    if (
      fragment &&
      resolved.endsWith('.md') &&
      !anchorsOf(readFileSync(resolved, 'utf8')).has(fragment.toLowerCase())
    ) {
      broken.push(`${link}: no heading with that anchor`);
    }
  }
  return broken;
}

describe('links between the docs', () => {
  it('finds the pages to check', () => {
    expect(pages).toContain('docs/operations.md');
    expect(relativeLinks(readFileSync(path.join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(5);
  });

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('reads anchors and links as GitHub does', () => {
    expect([...anchorsOf('# A `code` title: yes!\n## Same\n## Same\n```\n# not a heading\n```')]).toEqual([
      'a-code-title-yes',
      'same',
      'same-1',
    ]);
    expect(relativeLinks('[a](b.md#c) ![i](img/x.png "t") [w](https://x.test) `[n](no.md)`')).toEqual([
      'b.md#c',
      'img/x.png',
    ]);
  });
});
