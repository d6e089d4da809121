// The machines of front end part 2 with stand-in actors (no server, no socket): the
// activity log pages, waits while typing and takes live entries on top; the wall display
// fetches after events, keeps its last snapshot and retries when the server is away; the
// Alert Settings dialog asks the browser before turning notifications on.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { AlertSettings } from '../../shared/alerts.js';
import type { DisplaySnapshot } from '../../shared/dashboard.js';
import type { ActivityEntry, ActivityPage } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import type { NotificationPermissionState } from '../../client/features/alerts/browser-notifications.js';
import type { DisplayEvent } from '../../client/features/display/display.machine.js';
import { activityLogMachine } from '../../client/features/activity/activity-log.machine.js';
import type { ActivityParams } from '../../client/features/activity/api.js';
import { alertSettingsMachine, BLOCKED_MESSAGE } from '../../client/features/alerts/alert-settings.machine.js';
import type { AlertChoices } from '../../client/features/alerts/alert-choices.js';
import { displayMachine } from '../../client/features/display/display.machine.js';

type FeedOut = { type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' };
const quietFeed = fromCallback<FeedOut>(() => () => undefined);

function entry(id: string): ActivityEntry {
  return { id, userId: null, userName: 'Una', action: 'update', resourceType: 'inventory', resourceId: 'i', resourceName: 'Rice', timestamp: '2030-01-01T00:00:00Z', details: id };
}

function feedEvent(type = 'StockAdjusted'): FeedEvent {
  return { type, stream: 'item-1', streamType: 'item', version: 2, data: { delta: -1, quantity: 1 }, actor: { uid: null, name: 'x' }, time: '' };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('activity log machine', () => {
  function start(pages: (params: ActivityParams, cursor: string | null) => ActivityPage) {
    const calls: { params: ActivityParams; cursor: string | null }[] = [];
    const actor = createActor(
      activityLogMachine.provide({
        actors: {
          loadPage: fromPromise(async ({ input }: { input: { params: ActivityParams; cursor: string | null } }) => {
            calls.push(input);
            return pages(input.params, input.cursor);
          }),
          feed: quietFeed,
        },
      }),
    ).start();
    return { actor, calls };
  }

  it('loads the first page, then the next by cursor, until there is none', async () => {
    const { actor, calls } = start((_p, cursor) => (cursor ? { entries: [entry('c')], nextCursor: null } : { entries: [entry('b'), entry('a')], nextCursor: 'k1' }));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.context.entries.length === 3);
    expect(actor.getSnapshot().context.nextCursor).toBeNull();
    actor.send({ type: 'LOAD_MORE' });
    expect(calls.map((c) => c.cursor)).toEqual([null, 'k1']);
  });

  it('waits for a pause in typing before searching, and RESET clears filters', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start(() => ({ entries: [], nextCursor: null }));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'TYPE', q: 'r' });
    actor.send({ type: 'TYPE', q: 'ri' });
    actor.send({ type: 'TYPE', q: 'ric' });
    await vi.advanceTimersByTimeAsync(350);
    expect(calls.map((c) => c.params.q)).toEqual(['', 'ric']);
    actor.send({ type: 'SET_ACTION', action: 'delete' });
    actor.send({ type: 'SORT', column: 'user' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)!.params).toEqual({ q: 'ric', action: 'delete', sort: 'user', order: 'asc' });
    actor.send({ type: 'RESET' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)!.params).toEqual({ q: '', action: 'all', sort: 'timestamp', order: 'desc' });
  });

  it('puts live entries on top when newest first, and only flags them under another sort', async () => {
    vi.useFakeTimers();
    let latest = [entry('b'), entry('a')];
    const { actor } = start(() => ({ entries: latest, nextCursor: null }));
    await vi.advanceTimersByTimeAsync(10);
    latest = [entry('c'), entry('b'), entry('a')];
    actor.send({ type: 'FEED_EVENT', event: feedEvent() });
    actor.send({ type: 'FEED_EVENT', event: feedEvent('ItemWentLow') });
    await vi.advanceTimersByTimeAsync(300);
    expect(actor.getSnapshot().context.entries.map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(actor.getSnapshot().context.fresh).toEqual(['c']);

    actor.send({ type: 'SORT', column: 'action' });
    await vi.advanceTimersByTimeAsync(10);
    actor.send({ type: 'FEED_EVENT', event: feedEvent() });
    await vi.advanceTimersByTimeAsync(300);
    expect(actor.getSnapshot().context.newActivity).toBe(true);
  });
});

describe('wall display machine', () => {
  const snapshot = (storeName: string): DisplaySnapshot => ({ generatedAt: '', storeName, alerts: [], alertCount: 0, categories: [], recentActivity: [], money: { currency: 'USD', locale: 'en-US' } });

  it('fetches once for a burst of events, keeps the last snapshot while the server is away, and retries by itself', async () => {
    vi.useFakeTimers();
    const answers: (() => Promise<DisplaySnapshot>)[] = [async () => snapshot('One')];
    let calls = 0;
    let feed: ((e: FeedOut) => void) | null = null;
    const actor = createActor(
      displayMachine.provide({
        actors: {
          load: fromPromise(async () => {
            calls += 1;
            return (answers.shift() ?? (async () => snapshot('Later')))();
          }),
          feed: fromCallback<FeedOut>(({ sendBack }) => {
            feed = sendBack;
            return () => undefined;
          }),
          keepFresh: fromCallback<DisplayEvent, { everyMs: number }>(() => () => undefined),
        },
      }),
    ).start();
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('One');

    answers.push(async () => {
      throw new Error('All retry attempts failed');
    });
    for (let i = 0; i < 5; i++) feed!({ type: 'FEED_EVENT', event: feedEvent() });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(actor.getSnapshot().matches('waiting')).toBe(true);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('One');

    await vi.advanceTimersByTimeAsync(5_100);
    expect(calls).toBe(3);
    expect(actor.getSnapshot().context.snapshot?.storeName).toBe('Later');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.stop();
  });
});

describe('alert settings machine', () => {
  const loaded: AlertChoices = { inAppToasts: true, notifyWhen: 'low', browserNotifications: false };

  function start(permission: 'granted' | 'denied', saved: AlertSettings[]) {
    return createActor(
      alertSettingsMachine.provide({
        actors: {
          load: fromPromise(async () => loaded),
          askPermission: fromPromise<NotificationPermissionState, void>(async () => permission),
          save: fromPromise(async ({ input }: { input: AlertChoices }) => {
            saved.push({ inAppToasts: input.inAppToasts, notifyWhen: input.notifyWhen });
            return input;
          }),
        },
      }),
    ).start();
  }

  it('turns browser notifications on only when the browser allows them', async () => {
    const refused = start('denied', []);
    await waitFor(refused, (s) => s.matches('editing'));
    refused.send({ type: 'TOGGLE_BROWSER', on: true });
    await waitFor(refused, (s) => s.matches('editing') && s.context.error !== null);
    expect(refused.getSnapshot().context).toMatchObject({ error: BLOCKED_MESSAGE, draft: { browserNotifications: false } });

    const saved: AlertSettings[] = [];
    const allowed = start('granted', saved);
    await waitFor(allowed, (s) => s.matches('editing'));
    allowed.send({ type: 'TOGGLE_BROWSER', on: true });
    await waitFor(allowed, (s) => s.matches('editing') && !!s.context.draft?.browserNotifications);
    allowed.send({ type: 'SET_WHEN', when: 'out' });
    allowed.send({ type: 'SAVE' });
    await waitFor(allowed, (s) => s.matches('saved'));
    expect(saved).toEqual([{ inAppToasts: true, notifyWhen: 'out' }]);
  });
});
