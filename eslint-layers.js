// The layers of the code, held by ESLint's own no-restricted-imports (a well-kept rule we
// already run, no resolver needed): imports are relative paths, so for each folder and each
// depth below it we know exactly which `../` sequence reaches which folder, and forbid the
// ones that point the wrong way. `npm run lint` (and so CI) fails on a wrong-way import.
//
// Server, lowest first; a file may import its own layer and those below, never above:
//   core      errors, config, db, eventstore, secrets
//   subscriptions  what runs after commit subscribes there (it reads the event store)
//   platform  http, auth, app-context (what every feature is built from)
//   features  one folder each; features may use one another
//   history   reads across features (as-of, revert, changes); no feature imports it
//   top       app, features, main, start, launch, scripts, seed: the composition
// Client: lib < components < offline < features < app; a feature never imports another
// feature (shared code goes to components/ or lib/). shared/ imports neither side, and
// client and server never import each other.
import { readdirSync } from 'node:fs';

const SERVER_LAYERS = [
  ['errors.ts', 'config.ts', 'db', 'eventstore', 'secrets'],
  ['subscriptions'],
  ['http', 'auth', 'app-context.ts'],
  [
    'accounts',
    'activity',
    'alerts',
    'api-tokens',
    'categories',
    'dashboard',
    'import',
    'inventory',
    'realtime',
    'sites',
    'stocktake',
    'webhooks',
  ],
  ['history'],
  ['app.ts', 'features.ts', 'main.ts', 'start.ts', 'launch', 'scripts', 'seed'],
];
const CLIENT_LAYERS = [
  ['lib'],
  ['components'],
  ['offline'],
  ['features'],
  ['app', 'main.tsx', 'styles', 'public', 'theme-init.js'],
];

const MAX_DEPTH = 5;
const escape = (name) => name.replace(/\./g, '\\.');
/** The import string naming top-level entry `name` ('db' or 'app.ts') after `up` levels of `../` ('./' for 0). */
const reach = (up, name) => {
  const prefix = up === 0 ? '\\./' : `(\\.\\./){${up}}`;
  const target =
    name.endsWith('.ts') || name.endsWith('.tsx')
      ? `${escape(name.replace(/\.tsx?$/, ''))}(\\.js)?$`
      : `${escape(name)}(/|$)`;
  return `^${prefix}${target}`;
};
const rule = (regexes, message) => ({
  'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
});
/** Files `depth` folders below `dir` (0: directly in it). */
const filesAt = (dir, depth, ext) => [`${dir}/${'*/'.repeat(depth)}*.${ext}`];

function layered(root, layers, ext, extra, levels = layers.length) {
  const configs = [];
  for (const [level, names] of layers.slice(0, levels).entries()) {
    const above = layers.slice(level + 1).flat();
    for (const name of names) {
      const isFile = /\.(tsx?|js)$/.test(name);
      for (let depth = 0; depth <= (isFile ? 0 : MAX_DEPTH); depth++) {
        // A top-level file reaches its siblings with './', a file d folders down with d+1 '../'.
        const up = isFile ? 0 : depth + 1;
        const regexes = above.map((target) => reach(up, target));
        regexes.push(...extra(name, up));
        if (!regexes.length) continue;
        configs.push({
          files: isFile ? [`${root}/${name}`] : filesAt(`${root}/${name}`, depth, ext),
          rules: rule(
            regexes,
            `Wrong-way import: ${root}/${name} (layer ${level}) may not import this (see eslint-layers.js)`,
          ),
        });
      }
    }
  }
  return configs;
}

const otherSide = (side) => (name, up) => [`^(\\.\\./){${up + 1}}${side}/`, `^(\\.\\./){${up + 2},}`];

/** A client feature imports no other feature: per feature and depth, every sibling is out of reach. */
function clientFeatures() {
  const features = readdirSync('client/features', { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const configs = [];
  for (const feature of features) {
    const others = features
      .filter((f) => f !== feature)
      .map(escape)
      .join('|');
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      const up = depth + 1; // '../' count that reaches client/features/
      configs.push({
        files: filesAt(`client/features/${feature}`, depth, '{ts,tsx}'),
        rules: rule(
          [
            `^(\\.\\./){${up}}(${others})(/|$)`,
            `^(\\.\\./){${up + 1}}(app|features)(/|$)`,
            `^(\\.\\./){${up + 2}}server/`,
          ],
          `A feature imports no other feature and not the app shell: move what both need to client/components or client/lib (see eslint-layers.js)`,
        ),
      });
    }
  }
  return configs;
}

export const layerRules = [
  ...layered('server', SERVER_LAYERS, 'ts', otherSide('client')),
  // lib, components and offline here; features below (each also apart from the others).
  ...layered('client', CLIENT_LAYERS, '{ts,tsx}', otherSide('server'), 3),
  ...clientFeatures(),
  ...Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
    files: filesAt('shared', depth, 'ts'),
    rules: rule([`^(\\.\\./){${depth + 1}}(client|server)/`], 'shared/ is imported by both sides and imports neither'),
  })),
];
