// Starts the Firebase Auth emulator for local use and tests, keeping its accounts in a
// folder (import at start, export on exit) so accounts made locally survive a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const firebaseBin = fileURLToPath(new URL('../../node_modules/.bin/firebase', import.meta.url));

export interface AuthEmulator {
  host: string;
  projectId: string;
  /** Saves accounts (when a state folder is used) and stops the emulator. */
  stop(): Promise<void>;
}

export interface EmulatorOptions {
  projectId: string;
  port: number;
  /** Folder for the emulator's config and saved accounts; unset = a throwaway temp folder. */
  stateDir: string;
  persist: boolean;
  log?: (line: string) => void;
}

async function reachable(host: string): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return res.status < 500;
  } catch {
    return false;
  }
}

export async function startAuthEmulator(options: EmulatorOptions): Promise<AuthEmulator> {
  const host = `127.0.0.1:${options.port}`;
  if (await reachable(host)) {
    throw new Error(
      `Port ${options.port} is already in use (an auth emulator left running?). Stop it or set AUTH_EMULATOR_PORT.`,
    );
  }
  await mkdir(options.stateDir, { recursive: true });
  const configFile = path.join(options.stateDir, 'firebase.json');
  // Hub and logging ports are derived from the auth port so several emulators can coexist.
  await writeFile(
    configFile,
    JSON.stringify({
      emulators: {
        auth: { port: options.port, host: '127.0.0.1' },
        hub: { port: options.port + 1, host: '127.0.0.1' },
        logging: { port: options.port + 2, host: '127.0.0.1' },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const saved = path.join(options.stateDir, 'accounts');
  const args = ['emulators:start', '--only', 'auth', '--project', options.projectId, '--config', configFile];
  if (options.persist) {
    if (existsSync(path.join(saved, 'firebase-export-metadata.json'))) args.push('--import', saved);
    args.push('--export-on-exit', saved);
  }
  const child: ChildProcess = spawn(firebaseBin, args, {
    cwd: options.stateDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 50) output.shift();
      options.log?.(line);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const deadline = Date.now() + 90_000;
  while (!(await reachable(host))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The Firebase Auth emulator did not start:\n${output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    host,
    projectId: options.projectId,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGINT'); // SIGINT lets it export accounts before leaving
        const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timeout);
      }
      process.removeListener('exit', killOnExit);
    },
  };
}
