// SEED_DEMO creates manager@stockroom.test / manager123: it may only ever reach the auth
// emulator's throwaway accounts. Checked on loadConfig, the one place the server reads it.
import { describe, expect, it } from 'vitest';
import { ConfigError, launchPlan, loadConfig, loadConfigWithEmulator } from '../../server/config.js';

const REAL = { FIREBASE_PROJECT_ID: 'acme-stockroom', FIREBASE_API_KEY: 'AIza-real-key' };
const EMULATOR = { FIREBASE_PROJECT_ID: 'demo-stockroom', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
// A PostgreSQL store needs its secrets key too (SECRETS_KEY, see secrets-config.test.ts).
const POSTGRES = { DATABASE_URL: 'postgres://stockroom@127.0.0.1:5432/stockroom', SECRETS_KEY: 'a'.repeat(64) };

describe('SEED_DEMO', () => {
  it('is off by default with a real Firebase project on the embedded database (the Docker image without DATABASE_URL)', () => {
    expect(loadConfig({ ...REAL }).seedDemo).toBe(false);
    expect(loadConfig({ ...REAL, ...POSTGRES }).seedDemo).toBe(false);
  });

  it('is on by default with the emulator on the embedded database, as `npm start` runs it', () => {
    expect(loadConfig({ ...EMULATOR }).seedDemo).toBe(true);
    const plan = launchPlan({});
    expect(plan.startEmulator).toBe(true);
    expect(loadConfigWithEmulator(`127.0.0.1:${plan.emulatorPort}`, {}).seedDemo).toBe(true);
    // PostgreSQL stores are seeded only when asked, as before.
    expect(loadConfig({ ...EMULATOR, ...POSTGRES }).seedDemo).toBe(false);
    expect(loadConfig({ ...EMULATOR, ...POSTGRES, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('stops the server at start when set with a real project, naming the problem', () => {
    for (const env of [
      { ...REAL, SEED_DEMO: 'true' },
      { ...REAL, ...POSTGRES, SEED_DEMO: '1' },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        /^SEED_DEMO is on but FIREBASE_AUTH_EMULATOR_HOST is not set: demo accounts with known passwords would be created in the real Firebase project "acme-stockroom"/,
      );
    }
    // Saying no is always fine.
    expect(loadConfig({ ...REAL, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });
});
