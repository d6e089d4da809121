// All environment reading for the server, parsed once. Nothing else reads process.env:
// a bad value stops the process at start with a message naming the variable.
import path from 'node:path';
import { readFileSync } from 'node:fs';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  firebaseProjectId: string;
  firebaseApiKey: string;
  authEmulatorHost: string | undefined;
  /** Where browsers reach the emulator (differs from authEmulatorHost inside docker compose). */
  authEmulatorPublicUrl: string | null;
  allowedOrigins: string[];
  logLevel: string;
  rateLimitPerMinute: number;
  seedDemo: boolean;
  version: string;
  realtime: RealtimeConfig;
}

/** The WebSocket feed at /api/ws. */
export interface RealtimeConfig {
  /** Largest message a client may send (an auth message carries an ID token). */
  maxMessageBytes: number;
  /** Bytes queued for one client before it is dropped as too slow (it catches up on reconnect). */
  sendBufferBytes: number;
  /** Backstop poll for new events; 0 turns it off (the in-process and NOTIFY wake-ups remain). */
  pollMs: number;
  /** A reconnect that missed more events than this gets `snapshot-required` instead of a replay. */
  maxCatchUpEvents: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function intIn(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://`);
  }
  const authEmulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
  if (authEmulatorHost && !/^[\w.-]+:\d+$/.test(authEmulatorHost)) {
    throw new ConfigError(`FIREBASE_AUTH_EMULATOR_HOST must be host:port, got "${authEmulatorHost}"`);
  }
  const firebaseProjectId = env.FIREBASE_PROJECT_ID || 'demo-stockroom';
  if (!/^[a-z0-9-]{4,40}$/.test(firebaseProjectId)) {
    throw new ConfigError(`FIREBASE_PROJECT_ID must be a Firebase project id, got "${firebaseProjectId}"`);
  }
  if (!authEmulatorHost && firebaseProjectId.startsWith('demo-')) {
    throw new ConfigError(
      `FIREBASE_PROJECT_ID "${firebaseProjectId}" is a demo project: it only works with FIREBASE_AUTH_EMULATOR_HOST set`,
    );
  }
  const port = intIn(env, 'PORT', 3000, 0, 65535);
  // Emulator tokens are unsigned, so an emulator-backed server stays on loopback unless told otherwise.
  const host = env.HOST || (authEmulatorHost ? '127.0.0.1' : '0.0.0.0');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const allowedOrigins = (env.ALLOWED_ORIGINS || `http://localhost:${port},http://127.0.0.1:${port}`)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new ConfigError(`ALLOWED_ORIGINS has a bad origin "${origin}"`);
  }
  return {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    firebaseProjectId,
    firebaseApiKey: env.FIREBASE_API_KEY || 'demo-api-key',
    authEmulatorHost,
    authEmulatorPublicUrl: authEmulatorHost ? env.AUTH_EMULATOR_PUBLIC_URL || `http://${authEmulatorHost}` : null,
    allowedOrigins,
    logLevel,
    rateLimitPerMinute: intIn(env, 'RATE_LIMIT_PER_MINUTE', 1200, 1, 1_000_000),
    seedDemo: bool(env, 'SEED_DEMO', !databaseUrl),
    version: packageVersion(),
    realtime: {
      maxMessageBytes: intIn(env, 'REALTIME_MAX_MESSAGE_BYTES', 64 * 1024, 4096, 16 * 1024 * 1024),
      sendBufferBytes: intIn(env, 'REALTIME_SEND_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 256 * 1024 * 1024),
      pollMs: intIn(env, 'REALTIME_POLL_MS', 1500, 0, 600_000),
      maxCatchUpEvents: intIn(env, 'REALTIME_MAX_CATCH_UP_EVENTS', 10_000, 1, 10_000_000),
    },
  };
}

/** firebase-admin reads the emulator address from the environment itself; set it from config. */
export function exposeEmulatorToFirebaseAdmin(config: Config): void {
  if (config.authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.authEmulatorHost;
}

/** Port for the auth emulator that `npm start` launches. */
export function authEmulatorPort(env: Env = process.env): number {
  return intIn(env, 'AUTH_EMULATOR_PORT', 9099, 1, 65535);
}

export interface LaunchPlan {
  /** `npm start` runs its own auth emulator: no emulator given and no real project named. */
  startEmulator: boolean;
  emulatorPort: number;
  projectId: string;
  dataDir: string;
}

export function launchPlan(env: Env = process.env): LaunchPlan {
  const projectId = env.FIREBASE_PROJECT_ID || 'demo-stockroom';
  return {
    startEmulator: !env.FIREBASE_AUTH_EMULATOR_HOST && projectId.startsWith('demo-'),
    emulatorPort: authEmulatorPort(env),
    projectId,
    dataDir: path.resolve(env.DATA_DIR || './data'),
  };
}

export function loadConfigWithEmulator(emulatorHost: string | undefined, env: Env = process.env): Config {
  return loadConfig(emulatorHost ? { ...env, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost } : env);
}
