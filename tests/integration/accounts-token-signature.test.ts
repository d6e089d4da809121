// Signature checking, which emulator tokens (unsigned) cannot exercise: the verifier in
// production mode, with Google's public-key endpoint served locally, accepts a token signed
// by a published key and refuses one signed by another key, one with `alg: none`, and the rest.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, type TokenVerifier } from '../../server/auth/verify-token.js';
import { backends } from '../helpers/backends.js';
import { startTestServer } from '../helpers/test-server.js';

const PROJECT = 'stockroom-prod-test';
const KID = 'google-key-1';

describe('the token verifier in production mode', () => {
  let published: { privateKey: KeyLike; publicKey: KeyLike };
  let stranger: { privateKey: KeyLike; publicKey: KeyLike };
  let keyServer: Server;
  let keyRequests = 0;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    published = await generateKeyPair('RS256');
    stranger = await generateKeyPair('RS256');
    const jwks = { keys: [{ ...(await exportJWK(published.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
    keyServer = createServer((_req, res) => {
      keyRequests += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    const { port } = keyServer.address() as AddressInfo;
    verifier = createTokenVerifier(PROJECT, { emulator: false, publicKeysUrl: `http://127.0.0.1:${port}/jwk` });
  });
  afterAll(async () => {
    await verifier?.close();
    await new Promise((resolve) => keyServer?.close(resolve));
  });

  const now = () => Math.floor(Date.now() / 1000);
  const claims = (overrides: Record<string, unknown> = {}) => ({
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: 'user-123',
    auth_time: now() - 10,
    iat: now() - 10,
    exp: now() + 3600,
    email: 'casey@stockroom.test',
    role: 'staff',
    firebase: { sign_in_provider: 'password', identities: {} },
    ...overrides,
  });
  const sign = (key: KeyLike, payload = claims(), kid = KID) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);

  it('accepts a token signed with a published key', async () => {
    const verified = await verifier.verify(await sign(published.privateKey));
    expect(verified).toMatchObject({
      uid: 'user-123',
      email: 'casey@stockroom.test',
      roleClaim: 'staff',
      provider: 'password',
    });
    expect(keyRequests).toBe(1);
  });

  it('refuses a token signed by another key under a published key id', async () => {
    await expect(verifier.verify(await sign(stranger.privateKey))).rejects.toMatchObject({
      status: 401,
      message: 'Invalid or expired token',
    });
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    await expect(verifier.verify(unsigned)).rejects.toMatchObject({ status: 401 });
    // Also with a kid that exists and an empty or copied signature.
    const withKid = `${b64({ alg: 'none', kid: KID })}.${b64(claims())}.`;
    await expect(verifier.verify(withKid)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a published-key signature over a payload that was changed afterwards', async () => {
    const [header, , signature] = (await sign(published.privateKey)).split('.');
    const forged = Buffer.from(JSON.stringify(claims({ role: 'manager' }))).toString('base64url');
    await expect(verifier.verify(`${header}.${forged}.${signature}`)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses HS256 made with the public key as the secret (key confusion)', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(await exportJWK(published.publicKey)));
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: KID }).sign(secret);
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  it.each([
    ['an unknown key id', async () => sign(published.privateKey, claims(), 'other-kid')],
    [
      'another project',
      async () =>
        sign(
          published.privateKey,
          claims({ aud: 'other-project', iss: 'https://securetoken.google.com/other-project' }),
        ),
    ],
    ['the wrong issuer', async () => sign(published.privateKey, claims({ iss: 'https://evil.example/' + PROJECT }))],
    ['an expired token', async () => sign(published.privateKey, claims({ exp: now() - 60, iat: now() - 3700 }))],
    ['a token issued in the future', async () => sign(published.privateKey, claims({ iat: now() + 600 }))],
    ['an empty subject', async () => sign(published.privateKey, claims({ sub: '' }))],
  ])('refuses %s', async (_label, make) => {
    await expect(verifier.verify(await make())).rejects.toMatchObject({ status: 401 });
  });

  it('fetched the keys once and served the rest from its cache', () => {
    expect(keyRequests).toBe(1);
  });

  it('guards the API with it: a signed token gets in, a stranger-signed one gets 401', async () => {
    const server = await startTestServer(backends()[0]!, { context: { verifier } });
    try {
      const ok = await server.request('GET', '/api/me', {
        token: await sign(published.privateKey, claims({ sub: 'signed-user' })),
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ uid: 'signed-user', role: 'staff' });
      const refused = await server.request('GET', '/api/me', {
        token: await sign(stranger.privateKey, claims({ sub: 'signed-user' })),
      });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'Invalid or expired token' });
    } finally {
      await server.close();
    }
  });
});
