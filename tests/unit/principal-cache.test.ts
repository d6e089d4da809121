// The principal cache without a database: what it keeps, for how long, and what forgets it.
import { describe, expect, it } from 'vitest';
import { cachePrincipals } from '../../server/auth/principal-cache.js';
import type { Principal, PrincipalResolver } from '../../server/auth/principal.js';
import type { VerifiedToken } from '../../server/auth/verify-token.js';
import type { StoredEvent } from '../../server/eventstore/types.js';

const token = (uid: string, roleClaim: string | null = null): VerifiedToken => ({
  uid,
  email: `${uid}@stockroom.test`,
  name: null,
  picture: null,
  roleClaim,
  provider: 'password',
  expiresAt: Date.now() + 3_600_000,
});

function world() {
  let now = 0;
  let calls = 0;
  let listener: ((events: StoredEvent[]) => void) | null = null;
  const resolve: PrincipalResolver = async (t) => {
    calls++;
    if (t.uid === 'disabled') throw new Error('Account disabled');
    return {
      uid: t.uid,
      email: t.email,
      name: null,
      provider: t.provider,
      role: t.roleClaim ?? 'staff',
      permissions: ['inventory:view'],
      token: t,
      stamp: { user: calls, role: null, settings: null },
    } satisfies Principal;
  };
  const cache = cachePrincipals(resolve, {
    ttlMs: 1000,
    maxEntries: 2,
    now: () => now,
    subscribe: (l) => {
      listener = l;
      return () => (listener = null);
    },
  });
  const event = (streamType: string, streamId: string) => ({ streamType, streamId }) as StoredEvent;
  return {
    cache,
    calls: () => calls,
    advance: (ms: number) => (now += ms),
    dispatch: (...events: StoredEvent[]) => listener!(events),
    event,
  };
}

describe('principal cache', () => {
  it('serves a cached principal, marked tentative, only where a route allows it', async () => {
    const w = world();
    const fresh = await w.cache(token('u1'), { cached: true });
    expect(fresh.tentative).toBeFalsy();
    const cached = await w.cache(token('u1'), { cached: true });
    expect(cached).toMatchObject({ uid: 'u1', tentative: true, stamp: fresh.stamp });
    expect(w.calls()).toBe(1);
    // A route that does not check stamps always resolves afresh.
    expect((await w.cache(token('u1'))).tentative).toBeFalsy();
    expect(w.calls()).toBe(2);
  });

  it('resolves afresh after the TTL, and when the token says something else', async () => {
    const w = world();
    await w.cache(token('u1'), { cached: true });
    w.advance(999);
    await w.cache(token('u1'), { cached: true });
    expect(w.calls()).toBe(1);
    w.advance(2);
    await w.cache(token('u1'), { cached: true });
    expect(w.calls()).toBe(2);
    expect((await w.cache(token('u1', 'manager'), { cached: true })).role).toBe('manager');
    expect(w.calls()).toBe(3);
  });

  it("forgets a user on their own stream's events, everyone on a role or settings event", async () => {
    const w = world();
    await w.cache(token('u1'), { cached: true });
    await w.cache(token('u2'), { cached: true });
    w.dispatch(w.event('item', 'item-x'), w.event('user', 'user-u1'));
    expect(w.cache.has('u1')).toBe(false);
    expect(w.cache.has('u2')).toBe(true);
    await w.cache(token('u1'), { cached: true });
    w.dispatch(w.event('role', 'auditor'));
    expect(w.cache.size).toBe(0);
    await w.cache(token('u1'), { cached: true });
    w.dispatch(w.event('settings', 'settings'));
    expect(w.cache.size).toBe(0);
  });

  it('keeps no refused principal, and at most maxEntries users', async () => {
    const w = world();
    await expect(w.cache(token('disabled'), { cached: true })).rejects.toThrow('Account disabled');
    expect(w.cache.has('disabled')).toBe(false);
    for (const uid of ['a', 'b', 'c']) await w.cache(token(uid), { cached: true });
    expect(w.cache.size).toBe(2);
    expect(w.cache.has('a')).toBe(false);
  });
});
