// docker-compose.yml and the Dockerfile can't run here (no Docker engine), so they are
// checked by reading: valid YAML, the services production needs, and a non-root image.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config.js';

/** Compose's ${VAR:-default} and ${VAR:?message} with the given variables (the rest take their default). */
function interpolate(environment: Record<string, string>, vars: Record<string, string>): Record<string, string> {
  const value = (text: string) =>
    text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
      if (vars[name] !== undefined) return vars[name]!;
      if (kind === '-') return rest ?? '';
      throw new Error(`compose needs ${name}`);
    });
  return Object.fromEntries(Object.entries(environment).map(([key, text]) => [key, value(String(text))]));
}

const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'));
const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');

describe('docker-compose.yml', () => {
  it('runs PostgreSQL with a named volume and a health check', () => {
    expect(compose.services.db.image).toMatch(/^postgres:\d+/);
    expect(compose.services.db.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes)).toContain('pgdata');
    expect(compose.services.db.healthcheck.test.join(' ')).toContain('pg_isready');
  });

  it('runs the app from the Dockerfile against that database, after it is healthy', () => {
    const app = compose.services.app;
    expect(app.build).toEqual({ context: '.', target: 'runtime' });
    expect(app.depends_on.db.condition).toBe('service_healthy');
    expect(app.environment.DATABASE_URL).toMatch(/^postgres:\/\/stockroom:.*@db:5432\/stockroom$/);
    expect(app.environment.FIREBASE_PROJECT_ID).toContain(':?'); // required, no demo default
    expect(app.environment.SECRETS_KEY).toContain(':?'); // required: it encrypts the webhook secrets
    expect(app.environment.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
    expect(app.ports).toContain('3000:3000');
  });

  it('keeps the auth emulator in an optional demo profile, bound to loopback', () => {
    for (const name of ['auth-emulator', 'app-demo']) expect(compose.services[name].profiles).toEqual(['demo']);
    expect(compose.services['auth-emulator'].build.target).toBe('auth-emulator');
    expect(compose.services['auth-emulator'].ports.every((p: string) => p.startsWith('127.0.0.1:'))).toBe(true);
    expect(compose.services['app-demo'].environment.FIREBASE_AUTH_EMULATOR_HOST).toBe('auth-emulator:9099');
  });

  it("gives the demo app a database of its own: its seeded demo manager never lands in production's store", () => {
    const demo = compose.services['app-demo'];
    const demoDb = compose.services['demo-db'];
    expect(demoDb.profiles).toEqual(['demo']);
    expect(demo.depends_on.db).toBeUndefined();
    expect(demo.depends_on['demo-db'].condition).toBe('service_healthy');
    expect(new URL(demo.environment.DATABASE_URL).host).toBe('demo-db:5432');
    expect(demoDb.volumes).toEqual(['pgdata-demo:/var/lib/postgresql/data']);
    expect(demoDb.ports).toBeUndefined();
    expect(Object.keys(compose.volumes)).toContain('pgdata-demo');
  });

  it('seeds demo accounts only in the emulator-backed demo app, and its environment passes the config check', () => {
    const production = loadConfig(
      interpolate(compose.services.app.environment, {
        FIREBASE_PROJECT_ID: 'acme-stockroom',
        FIREBASE_API_KEY: 'AIza-key',
        SECRETS_KEY: 'a'.repeat(64),
      }),
    );
    expect(production.seedDemo).toBe(false);
    const demo = loadConfig(interpolate(compose.services['app-demo'].environment, {}));
    expect(demo.seedDemo).toBe(true);
    expect(demo.authEmulatorHost).toBe('auth-emulator:9099');
  });

  it('every build target names a stage of the Dockerfile', () => {
    const stages = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);
    for (const service of Object.values<any>(compose.services)) {
      if (service.build) expect(stages).toContain(service.build.target);
    }
  });
});

describe('Dockerfile', () => {
  it('is multi-stage and runs the app as a non-root user on runtime dependencies only', () => {
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'), dockerfile.indexOf('AS auth-emulator'));
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('HEALTHCHECK');
  });
});
