// Token verification on /api routes with real emulator tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { forgeToken, signInAnonymously, signUp } from '../helpers/emulator-accounts.js';
import { allowGuestSignIn } from '../helpers/guest-access.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('authentication on /api', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends()[0]!);
  });
  afterAll(() => server.close());

  it('answers /api/health without a token', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'pglite', databaseStatus: 'up', version: expect.any(String) });
  });

  it('accepts a real emulator ID token and exposes the user', async () => {
    const account = await signUp({ displayName: 'Avery Tester' });
    const res = await server.request('GET', '/api/me', { token: account.idToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: account.uid,
      email: account.email,
      name: 'Avery Tester',
      provider: 'password',
    });
  });

  it('treats an anonymous account as a guest (once the store allows guests)', async () => {
    await allowGuestSignIn(server);
    const guest = await signInAnonymously();
    const res = await server.request('GET', '/api/me', { token: guest.idToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: guest.uid, provider: 'anonymous', role: 'guest' });
    expect(res.body.permissions).not.toContain('stock:update');
  });

  it.each([
    ['no token', undefined, 'Authentication required'],
    ['a malformed token', 'not-a-jwt', 'Invalid or expired token'],
    [
      'a token for another project',
      () => forgeToken({ aud: 'demo-other', iss: 'https://securetoken.google.com/demo-other' }),
      'Invalid or expired token',
    ],
    [
      'an expired token',
      () => forgeToken({ exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3700 }),
      'Invalid or expired token',
    ],
  ])('refuses %s with 401', async (_label, token, message) => {
    const value = typeof token === 'function' ? token() : token;
    const res = await server.request('GET', '/api/me', value ? { token: value } : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: message });
  });

  it('refuses a well-formed token for this project only when it is garbled', async () => {
    const account = await signUp();
    const garbled = account.idToken.slice(0, -10) + 'AAAAAAAAAA';
    const [, payload] = account.idToken.split('.');
    const ok = await server.request('GET', '/api/me', { token: account.idToken });
    const bad = await server.request('GET', '/api/me', { token: garbled.replace(payload!, payload!.slice(0, -4)) });
    expect(ok.status).toBe(200);
    expect(bad.status).toBe(401);
  });
});
