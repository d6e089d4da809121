// Real accounts and ID tokens from the Firebase Auth emulator's REST API.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export function emulatorHost(): string {
  return inject('authEmulatorHost');
}

export function emulatorProjectId(): string {
  return inject('authProjectId');
}

export interface TestAccount {
  uid: string;
  email: string | null;
  password: string | null;
  idToken: string;
  refreshToken: string;
}

async function call(path: string, body: unknown, host = emulatorHost()): Promise<any> {
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/${path}?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`emulator ${path}: ${JSON.stringify(json)}`);
  return json;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@stockroom.test`;
}

export async function signUp(
  options: { email?: string; password?: string; displayName?: string } = {},
): Promise<TestAccount> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'secret123';
  const json = await call('accounts:signUp', { email, password, returnSecureToken: true });
  if (options.displayName) {
    await call('accounts:update', { idToken: json.idToken, displayName: options.displayName });
    return signIn(email, password); // a token that carries the name
  }
  return { uid: json.localId, email, password, idToken: json.idToken, refreshToken: json.refreshToken };
}

export async function signInAnonymously(): Promise<TestAccount> {
  const json = await call('accounts:signUp', { returnSecureToken: true });
  return { uid: json.localId, email: null, password: null, idToken: json.idToken, refreshToken: json.refreshToken };
}

export async function signIn(email: string, password: string): Promise<TestAccount> {
  const json = await call('accounts:signInWithPassword', { email, password, returnSecureToken: true });
  return { uid: json.localId, email, password, idToken: json.idToken, refreshToken: json.refreshToken };
}

/** A fresh ID token (picks up changed custom claims). */
export async function refreshIdToken(account: TestAccount): Promise<string> {
  const res = await fetch(`http://${emulatorHost()}/securetoken.googleapis.com/v1/token?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(account.refreshToken)}`,
  });
  const json = (await res.json()) as { id_token: string };
  account.idToken = json.id_token;
  return json.id_token;
}

/** An unsigned emulator-style token with chosen claims (expired, other project, ...). */
export function forgeToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const project = emulatorProjectId();
  const payload = {
    iss: `https://securetoken.google.com/${project}`,
    aud: project,
    auth_time: now,
    user_id: 'forged-user',
    sub: 'forged-user',
    iat: now,
    exp: now + 3600,
    firebase: { identities: {}, sign_in_provider: 'password' },
    ...claims,
  };
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

export function randomSuffix(): string {
  return randomBytes(4).toString('hex');
}
