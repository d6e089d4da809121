// `npm start` (and `npm run dev`): starts the auth emulator when no real Firebase project
// is configured, builds the client when stale, runs the server, and on Ctrl-C or SIGTERM
// stops everything it started.
import path from 'node:path';
import { ConfigError, launchPlan, loadConfigWithEmulator } from './config.js';
import { startAuthEmulator, type AuthEmulator } from './launch/auth-emulator.js';
import { buildClientIfStale, clientDist } from './launch/client-build.js';
import { startServer, type RunningServer } from './main.js';
import { DataFolderInUseError } from './db/data-folder-lock.js';

const dev = process.argv.includes('--dev');
// API only, no client build (the launcher's own tests run beside a client build of their own).
const apiOnly = process.argv.includes('--api-only');
const say = (line: string) => console.log(`[stockroom] ${line}`);

async function run(): Promise<void> {
  const plan = launchPlan();
  // Filled in as things start, so a stop at any moment stops what is running.
  const running: { emulator?: AuthEmulator; server?: RunningServer; devServer?: { close(): Promise<void> } } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C: the user does not want to wait for in-flight requests.
      say(`${signal} again: stopping now`);
      await running.emulator?.stop().catch(() => undefined);
      process.exit(1);
    }
    stopping = true;
    say(`${signal}: shutting down...`);
    await running.devServer?.close().catch(() => undefined);
    await running.server?.close().catch((e) => console.error(e));
    await running.emulator?.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // Validate before starting anything, so a bad variable fails in a second.
  loadConfigWithEmulator(plan.startEmulator ? `127.0.0.1:${plan.emulatorPort}` : undefined);
  if (plan.startEmulator) {
    say(`Starting the Firebase Auth emulator (project ${plan.projectId}, port ${plan.emulatorPort})...`);
    running.emulator = await startAuthEmulator({
      projectId: plan.projectId,
      port: plan.emulatorPort,
      stateDir: path.join(plan.dataDir, 'auth-emulator'),
      persist: true,
    });
  }
  const config = loadConfigWithEmulator(running.emulator?.host);
  const serveClient = !dev && !apiOnly;
  if (serveClient) await buildClientIfStale(say);
  const server = await startServer(config, serveClient ? { clientDir: clientDist } : {});
  running.server = server;
  if (dev) {
    const { createServer } = await import('vite');
    const vite = await createServer({ configFile: path.resolve('vite.config.ts'), server: { port: 5173 } });
    await vite.listen();
    running.devServer = vite;
    say('Hot-reloading client on http://localhost:5173 (API proxied to the server)');
  }
  const shown = server.url.replace('127.0.0.1', 'localhost');
  say(
    `Stockroom is running on ${shown} (database: ${server.database.kind}${config.databaseUrl ? '' : `, data in ${config.dataDir}`})`,
  );
  if (config.authEmulatorHost) {
    say(`Auth: Firebase Auth emulator at ${config.authEmulatorHost}. Emulator tokens are unsigned:`);
    say('  this server listens on loopback only and must not be exposed to a network.');
  }
  if (server.demoLogins.length) {
    say('Demo logins:');
    for (const login of server.demoLogins) say(`  ${login.role.padEnd(8)} ${login.email}  password: ${login.password}`);
  }
}

run().catch((error) => {
  if (error instanceof ConfigError) console.error(`[stockroom] Configuration error: ${error.message}`);
  else if (error instanceof DataFolderInUseError) console.error(`[stockroom] ${error.message}`);
  else console.error('[stockroom] Failed to start:', error);
  process.exit(1);
});
