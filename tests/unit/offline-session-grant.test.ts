// The cached session grant that lets a signed-in user open the app offline:
// kept per user, used only when no answer comes and only for a restore, never for a
// sign-up (whose requested role must reach the server), and refreshed by every answer.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../shared/accounts.js';
import { cachedGrant, forgetGrant, saveGrant, startSessionOrCached } from '../../client/app/session-grant.js';
import { ApiError } from '../../client/lib/api-client.js';

const store = new Map<string, string>();
globalThis.localStorage = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
  clear: () => store.clear(),
  key: () => null,
  length: 0,
} as Storage;

const grant = (role: string): SessionResponse =>
  ({
    user: { id: 'u1', name: 'Ann', role },
    permissions: ['inventory:view'],
    refreshToken: true,
  }) as unknown as SessionResponse;

const offline = () => Promise.reject(new ApiError('All retry attempts failed', 0));

describe('cached session grant', () => {
  beforeEach(() => store.clear());

  it('keeps the last answer per user, without the refresh-token flag', async () => {
    const session = await startSessionOrCached(
      {},
      'u1',
      async () => grant('staff'),
      () => true,
    );
    expect(session.user.role).toBe('staff');
    expect(cachedGrant('u1')).toMatchObject({ user: { role: 'staff' }, refreshToken: false });
    expect(cachedGrant('u2')).toBeNull();
  });

  it('answers a restore from the cache when offline, without asking the server', async () => {
    saveGrant('u1', grant('manager'));
    let asked = 0;
    const session = await startSessionOrCached(
      {},
      'u1',
      async () => (asked++, grant('staff')),
      () => false,
    );
    expect(session.user.role).toBe('manager');
    expect(asked).toBe(0);
  });

  it('falls back to the cache when the request gets no answer, but not on an answer that says no', async () => {
    saveGrant('u1', grant('manager'));
    await expect(startSessionOrCached({}, 'u1', offline, () => true)).resolves.toMatchObject({
      user: { role: 'manager' },
    });
    const disabled = () => Promise.reject(new ApiError('Account disabled', 403));
    await expect(startSessionOrCached({}, 'u1', disabled, () => true)).rejects.toThrow('Account disabled');
  });

  it('never answers a sign-up or another user from the cache', async () => {
    saveGrant('u1', grant('manager'));
    await expect(
      startSessionOrCached({ requestedRole: 'manager', name: 'Ann' }, 'u1', offline, () => false),
    ).rejects.toThrow();
    await expect(startSessionOrCached({}, 'u2', offline, () => false)).rejects.toThrow();
    forgetGrant();
    await expect(startSessionOrCached({}, 'u1', offline, () => false)).rejects.toThrow();
  });
});
