// `npm run projections:rebuild` replays every event into fresh projection tables and swaps
// them in; `npm run projections:verify` replays into scratch tables and exits 1 on any difference.
import { rebuildProjections, verifyProjections } from '../eventstore/rebuild-projections.js';
import { openConfiguredStore } from './open-configured-store.js';

const command = process.argv[2];
if (command !== 'rebuild' && command !== 'verify') {
  console.error('usage: projections.ts rebuild|verify');
  process.exit(2);
}
const { database, store } = await openConfiguredStore();
let exitCode = 0;
const started = Date.now();
if (command === 'rebuild') {
  await rebuildProjections(store);
  console.log(
    `Rebuilt ${store.projections.map((p) => p.name).join(', ') || 'no projections'} in ${Date.now() - started} ms`,
  );
} else {
  const differences = await verifyProjections(store);
  if (differences.length === 0) {
    console.log(`Projections match the events (${database.kind}, ${Date.now() - started} ms)`);
  } else {
    exitCode = 1;
    console.log('Projections differ from a replay of the events:');
    for (const d of differences) {
      console.log(`  ${d.table}: ${d.onlyLive} row(s) only in the live table, ${d.onlyRebuilt} only in the replay`);
    }
  }
}
await database.close();
process.exit(exitCode);
