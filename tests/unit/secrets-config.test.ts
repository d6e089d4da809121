// The secrets key and the idempotency settings: what SECRETS_KEY may be, that a server on a
// database server will not start without one, that sealed secrets open only with their key
// and row, and that the keep period cannot go below the 24 hours promised.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createSecretBox } from '../../server/secrets/secret-box.js';

const base = {
  FIREBASE_PROJECT_ID: 'demo-secrets',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  LOG_LEVEL: 'silent',
};
const key = Buffer.alloc(32, 7);

describe('SECRETS_KEY', () => {
  it('takes 32 bytes as hex or base64, and refuses anything else', () => {
    expect(loadConfig({ ...base, SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
    expect(loadConfig({ ...base, SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({ ...base, SECRETS_KEY: key.toString('base64url') }).secretsKey).toEqual(key);
    for (const bad of [
      'short',
      Buffer.alloc(16).toString('hex'),
      Buffer.alloc(31).toString('base64'),
      'z'.repeat(64),
    ]) {
      expect(() => loadConfig({ ...base, SECRETS_KEY: bad })).toThrow(/SECRETS_KEY must be 32 random bytes/);
    }
  });

  it('is required with DATABASE_URL; the embedded store does without (its data folder keeps one)', () => {
    expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://db/stockroom' })).toThrow(
      /SECRETS_KEY is required with DATABASE_URL/,
    );
    expect(
      loadConfig({ ...base, DATABASE_URL: 'postgres://db/stockroom', SECRETS_KEY: key.toString('hex') }).secretsKey,
    ).toEqual(key);
    expect(loadConfig(base).secretsKey).toBeNull();
  });
});

describe('IDEMPOTENCY_KEEP_HOURS', () => {
  it('defaults to 48 hours and never goes below the 24 promised', () => {
    expect(loadConfig(base).idempotency).toEqual({ keepHours: 48, sweepEveryMs: 3_600_000 });
    expect(loadConfig({ ...base, IDEMPOTENCY_KEEP_HOURS: '24' }).idempotency.keepHours).toBe(24);
    expect(() => loadConfig({ ...base, IDEMPOTENCY_KEEP_HOURS: '23' })).toThrow(
      /IDEMPOTENCY_KEEP_HOURS must be an integer from 24/,
    );
  });
});

describe('sealed secrets', () => {
  const box = createSecretBox(key);

  it('are not the secret, differ each time, and open back with the same key and row', () => {
    const secret = 'whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IQ==';
    const a = box.seal(secret, 'endpoint-1');
    const b = box.seal(secret, 'endpoint-1');
    expect(a).toMatch(/^enc:v1:/);
    expect(a).not.toContain('whsec_');
    expect(a).not.toBe(b);
    expect(box.open(a, 'endpoint-1')).toBe(secret);
  });

  it('do not open with another key, for another row, or changed', () => {
    const sealed = box.seal('whsec_abc', 'endpoint-1');
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'endpoint-1')).toThrow(/does not open/);
    expect(() => box.open(sealed, 'endpoint-2')).toThrow(/does not open/);
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => box.open(flipped, 'endpoint-1')).toThrow(/does not open/);
  });

  it('values stored before sealing existed come back as they are (sealed at start)', () => {
    expect(box.open('whsec_plain', 'endpoint-1')).toBe('whsec_plain');
  });
});
