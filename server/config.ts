// All environment reading for the server, parsed once. Nothing else reads process.env:
// a bad value stops the process at start with a message naming the variable.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

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
  /** Which X-Forwarded-For hops to believe for the client's address (Fastify's trustProxy). */
  trustProxy: TrustProxy;
  seedDemo: boolean;
  /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before their connections are cut. */
  shutdownTimeoutMs: number;
  /**
   * The first part of a shutdown: how long every answer asks its client to close the
   * connection before the server stops listening (server/launch/connection-drain.ts).
   */
  shutdownDrainMs: number;
  /** PGlite only (no autovacuum): how often the history tables are vacuumed (server/db/pglite-vacuum.ts); 0 = never. */
  pgliteVacuumEveryMs: number;
  version: string;
  realtime: RealtimeConfig;
  webhooks: WebhookConfig;
  /**
   * SECRETS_KEY: encrypts secrets kept at rest (webhook signing secrets). Required with
   * DATABASE_URL; null on the embedded store means the data folder's own generated key
   * (server/secrets/secrets-key.ts).
   */
  secretsKey: Buffer | null;
  idempotency: IdempotencyConfig;
  import: ImportLimits;
}

/** The most one CSV import's dry run takes (the whole file in one request): past either, 413. */
export interface ImportLimits {
  /** IMPORT_MAX_ROWS: data rows of one file. */
  maxRows: number;
  /** IMPORT_MAX_BYTES: the dry run's request body (the file's rows as JSON, a little more than the file). */
  maxBytes: number;
}

/** Stored answers to Idempotency-Keys (server/http/idempotency.ts). */
export interface IdempotencyConfig {
  /** How long an answer is replayed for its key (at least the 24 hours promised), then deleted. */
  keepHours: number;
  /** How often expired answers are deleted, whatever the write traffic. */
  sweepEveryMs: number;
}

/** Outgoing webhooks (server/webhooks): timings are settings so tests run in seconds. */
export interface WebhookConfig {
  /** Plain http to localhost/127.0.0.1 allowed (emulator or demo mode only); also loopback addresses, refused otherwise (server/webhooks/private-address.ts). */
  allowLocalHttp: boolean;
  /** Host names answered from this list instead of DNS when connecting (tests set it in code; never read from the environment). */
  hostOverrides?: Record<string, string[]>;
  /** Most time one delivery may take before it counts as a timeout. */
  timeoutMs: number;
  /** First retry delay; each later one doubles (with jitter) up to maxDelayMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long an endpoint may keep failing before it is disabled. */
  retryForMs: number;
  /** How long an instance holds an endpoint between renewals (another takes over after). */
  leaseMs: number;
  /** Backstop poll for new events (commits and NOTIFY wake the deliverer sooner). */
  pollMs: number;
  /** Endpoints this instance delivers to at once. */
  concurrency: number;
  /** Messages in flight at once to one endpoint (different streams; a stream is always one at a time). */
  inFlight: number;
  /** Delivery log rows kept per endpoint (newest first), and for how long at most. */
  logKeep: number;
  logRetentionMs: number;
  /** How often an instance trims the delivery log. */
  logTrimEveryMs: number;
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

/** false: the peer is the client; a number: that many proxies in front; addresses/CIDRs: the proxies. */
export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

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

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address or CIDR range as proxy-addr takes it: 10.0.0.1, 10.0.0.0/8, fd00::/8. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset/false (the app faces clients directly), true (any proxy: only when the
 * app is unreachable except through it), a hop count, or the proxies' addresses/CIDRs.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || ['false', 'no', '0'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) {
    const hops = intIn(env, 'TRUST_PROXY', 0, 1, 32);
    // Fastify's types take no number, its code does: a function says the same thing.
    return (_address, hop) => hop < hops;
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!isAddressOrRange(entry) && !NAMED_RANGES.includes(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a hop count, or proxy addresses/CIDRs (or ${NAMED_RANGES.join(', ')}), got "${entry}"`,
      );
    }
  }
  return entries.join(',');
}

/** SECRETS_KEY's form: 32 bytes as 64 hex digits or base64 (base64url too); null if it is neither. */
export function parseSecretsKey(raw: string): Buffer | null {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return null;
}

/**
 * With DATABASE_URL every instance must decrypt what any other encrypted, so the key comes
 * from configuration; a server that would generate one of its own stops instead.
 */
function secretsKey(env: Env, databaseUrl: string | undefined): Buffer | null {
  const raw = env.SECRETS_KEY;
  if (raw) {
    const key = parseSecretsKey(raw);
    if (!key)
      throw new ConfigError(
        'SECRETS_KEY must be 32 random bytes as base64 or 64 hex digits (e.g. `openssl rand -base64 32`)',
      );
    return key;
  }
  if (databaseUrl) {
    throw new ConfigError(
      'SECRETS_KEY is required with DATABASE_URL: it encrypts webhook signing secrets in the database, and every instance needs the same key. Generate one with `openssl rand -base64 32` and keep it apart from database backups',
    );
  }
  return null;
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
  // Demo accounts have published passwords (manager123): only ever in the emulator's throwaway
  // accounts, never in a real Firebase project, whatever the database.
  const seedDemo = bool(env, 'SEED_DEMO', Boolean(authEmulatorHost) && !databaseUrl);
  if (seedDemo && !authEmulatorHost) {
    throw new ConfigError(
      `SEED_DEMO is on but FIREBASE_AUTH_EMULATOR_HOST is not set: demo accounts with known passwords would be created in the real Firebase project "${firebaseProjectId}". Unset SEED_DEMO, or use the auth emulator`,
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
    trustProxy: trustProxy(env),
    seedDemo,
    shutdownTimeoutMs: intIn(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDrainMs: intIn(env, 'SHUTDOWN_DRAIN_MS', 1000, 0, 60_000),
    pgliteVacuumEveryMs: intIn(env, 'PGLITE_VACUUM_EVERY_MS', 3_600_000, 0, 7 * 24 * 3_600_000),
    version: packageVersion(),
    realtime: {
      maxMessageBytes: intIn(env, 'REALTIME_MAX_MESSAGE_BYTES', 64 * 1024, 4096, 16 * 1024 * 1024),
      sendBufferBytes: intIn(env, 'REALTIME_SEND_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 256 * 1024 * 1024),
      pollMs: intIn(env, 'REALTIME_POLL_MS', 1500, 0, 600_000),
      maxCatchUpEvents: intIn(env, 'REALTIME_MAX_CATCH_UP_EVENTS', 10_000, 1, 10_000_000),
    },
    webhooks: webhookConfig(env, Boolean(authEmulatorHost) || firebaseProjectId.startsWith('demo-')),
    secretsKey: secretsKey(env, databaseUrl),
    idempotency: {
      keepHours: intIn(env, 'IDEMPOTENCY_KEEP_HOURS', 48, 24, 24 * 366),
      sweepEveryMs: intIn(env, 'IDEMPOTENCY_SWEEP_EVERY_MS', 3_600_000, 100, 86_400_000),
    },
    import: {
      maxRows: intIn(env, 'IMPORT_MAX_ROWS', 100_000, 1, 10_000_000),
      maxBytes: intIn(env, 'IMPORT_MAX_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    },
  };
}

function webhookConfig(env: Env, localMode: boolean): WebhookConfig {
  const timeoutMs = intIn(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const leaseMs = intIn(env, 'WEBHOOK_LEASE_MS', 60_000, 1000, 3_600_000);
  // A lease must outlast a delivery, or a slow receiver would hand the endpoint to another instance mid-send.
  if (leaseMs < timeoutMs * 2)
    throw new ConfigError(`WEBHOOK_LEASE_MS must be at least twice WEBHOOK_TIMEOUT_MS (${timeoutMs * 2})`);
  return {
    allowLocalHttp: localMode,
    timeoutMs,
    retryBaseMs: intIn(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxMs: intIn(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    retryForMs: intIn(env, 'WEBHOOK_RETRY_FOR_MS', 86_400_000, 100, 7 * 86_400_000),
    leaseMs,
    pollMs: intIn(env, 'WEBHOOK_POLL_MS', 2_000, 50, 600_000),
    concurrency: intIn(env, 'WEBHOOK_CONCURRENCY', 4, 1, 64),
    inFlight: intIn(env, 'WEBHOOK_IN_FLIGHT', 16, 1, 64),
    logKeep: intIn(env, 'WEBHOOK_LOG_KEEP', 10_000, 10, 10_000_000),
    logRetentionMs: intIn(env, 'WEBHOOK_LOG_RETENTION_DAYS', 30, 1, 3650) * 86_400_000,
    logTrimEveryMs: intIn(env, 'WEBHOOK_LOG_TRIM_EVERY_MS', 3_600_000, 100, 86_400_000),
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
