// `npm run bench`: runs every benchmark and prints one table, each result beside its target.
import { appendBench } from './append-bench.js';
import { inventoryBench } from './inventory-bench.js';
import { lighthouseBench } from './lighthouse-bench.js';
import { commandPathBench } from './command-path-bench.js';
import { importBench } from './import-bench.js';
import { webhookBench } from './webhook-bench.js';
import { asOfBench } from './as-of-bench.js';
import { placesBench } from './places-bench.js';
// A static import like the others: a realtime bench that does not load fails the run.
import { realtimeBench } from './realtime-bench.js';
import type { Row } from './bench-kit.js';

const log = (s: string) => console.error(s);
const only = process.argv[2];
const suites: [string, () => Promise<Row[]>][] = [
  ['append', appendBench],
  ['inventory', () => inventoryBench(log)],
  ['lighthouse', () => lighthouseBench(log)],
  ['command-path', () => commandPathBench(log)],
  ['import', () => importBench(log)],
  ['webhooks', () => webhookBench(log)],
  ['as-of', () => asOfBench(log)],
  ['places', () => placesBench(log)],
  ['realtime', realtimeBench],
];
if (only && !suites.some(([name]) => name === only)) {
  log(`no benchmark named '${only}': choose one of ${suites.map(([name]) => name).join(', ')}`);
  process.exit(1);
}

const rows: Row[] = [];
for (const [name, run] of suites) {
  if (only && only !== name) continue;
  log(`running ${name} benchmarks...`);
  rows.push(...(await run()));
}
const widths = (['benchmark', 'result', 'target'] as const).map((k) =>
  Math.max(k.length, ...rows.map((r) => r[k].length)),
);
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(['benchmark', 'result', 'target']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line([r.benchmark, r.result, r.target]));
process.exit(0);
