// docker-compose.yml and the Dockerfile can't run here (no Docker engine), so they are
// checked by reading: valid YAML, the services production needs, and a non-root image.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
    expect(app.environment.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
    expect(app.ports).toContain('3000:3000');
  });

  it('keeps the auth emulator in an optional demo profile, bound to loopback', () => {
    for (const name of ['auth-emulator', 'app-demo']) expect(compose.services[name].profiles).toEqual(['demo']);
    expect(compose.services['auth-emulator'].build.target).toBe('auth-emulator');
    expect(compose.services['auth-emulator'].ports.every((p: string) => p.startsWith('127.0.0.1:'))).toBe(true);
    expect(compose.services['app-demo'].environment.FIREBASE_AUTH_EMULATOR_HOST).toBe('auth-emulator:9099');
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
