// The Settings screen: loads the store settings and roles, edits a draft, saves only what
// changed (Save Changes) and confirms with a toast. Pushed settings or role events reload
// the screen unless the user is in the middle of an edit.
import { assign, enqueueActions, fromPromise, not, setup } from 'xstate';
import type { Role, Settings } from '../../../shared/accounts';
import type { FeedEvent } from '../../../shared/realtime';
import { errorMessage } from '../../lib/api-client';
import { liveFeedActor } from '../../lib/live-query.machine';
import { setStoreMoney } from '../../lib/store-money';
import { toast } from '../../lib/toasts';
import { settingsApi } from './api';

export interface SettingsContext {
  saved: Settings | null;
  draft: Settings | null;
  roles: Role[];
  error: string | null;
  saveError: string | null;
}

export type SettingsEvent =
  | { type: 'EDIT'; changes: Partial<Settings> }
  | { type: 'SAVE' }
  | { type: 'DISCARD' }
  | { type: 'RETRY' }
  | { type: 'FEED_EVENT'; event: FeedEvent }
  | { type: 'RESYNC' };

/** The fields of the draft that differ from what the server holds. */
export function changedFields(saved: Settings, draft: Settings): Partial<Settings> {
  const changes: Partial<Settings> = {};
  for (const key of Object.keys(draft) as (keyof Settings)[]) {
    if (draft[key] !== saved[key]) (changes as Record<string, unknown>)[key] = draft[key];
  }
  return changes;
}

export function isDirty(context: Pick<SettingsContext, 'saved' | 'draft'>): boolean {
  return !!context.saved && !!context.draft && Object.keys(changedFields(context.saved, context.draft)).length > 0;
}

const concerns = (event: FeedEvent) => event.streamType === 'settings' || event.streamType === 'role';

export const settingsMachine = setup({
  types: { context: {} as SettingsContext, events: {} as SettingsEvent },
  actors: {
    load: fromPromise<{ settings: Settings; roles: Role[] }, void>(async () => {
      const [settings, roles] = await Promise.all([settingsApi.read(), settingsApi.roles()]);
      return { settings, roles };
    }),
    save: fromPromise<Settings, Partial<Settings>>(({ input }) => settingsApi.save(input)),
    feed: liveFeedActor,
  },
  guards: {
    dirty: ({ context }) => isDirty(context),
    concernsIdle: ({ context, event }) => event.type === 'FEED_EVENT' && concerns(event.event) && !isDirty(context),
  },
  actions: {
    setLoaded: assign(({ event }) => {
      const { settings, roles } = (event as unknown as { output: { settings: Settings; roles: Role[] } }).output;
      return { saved: settings, draft: settings, roles, error: null };
    }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load settings'),
    }),
    edit: assign({
      draft: ({ context, event }) =>
        event.type === 'EDIT' && context.draft ? { ...context.draft, ...event.changes } : context.draft,
      saveError: null,
    }),
    discard: assign({ draft: ({ context }) => context.saved, saveError: null }),
    setSaved: enqueueActions(({ event, enqueue }) => {
      const settings = (event as unknown as { output: Settings }).output;
      enqueue.assign({ saved: settings, draft: settings, saveError: null });
      // Every screen's prices follow at once, before the feed's copy of the change arrives.
      setStoreMoney(settings);
      toast.success('Settings saved');
    }),
    setSaveError: enqueueActions(({ event, enqueue }) => {
      const message = errorMessage((event as unknown as { error: unknown }).error, 'Failed to save settings');
      enqueue.assign({ saveError: message });
      toast.error(message);
    }),
    nothingToSave: () => toast.info('No changes to save'),
  },
}).createMachine({
  id: 'settings',
  context: { saved: null, draft: null, roles: [], error: null, saveError: null },
  invoke: { src: 'feed' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: 'setLoaded' },
        onError: { target: 'error', actions: 'setError' },
      },
    },
    error: { on: { RETRY: 'loading' } },
    reloading: {
      invoke: { src: 'load', onDone: { target: 'ready', actions: 'setLoaded' }, onError: 'ready' },
    },
    ready: {
      on: {
        EDIT: { actions: 'edit' },
        DISCARD: { actions: 'discard' },
        SAVE: [{ guard: 'dirty', target: 'saving' }, { actions: 'nothingToSave' }],
        FEED_EVENT: { guard: 'concernsIdle', target: 'reloading' },
        RESYNC: { guard: not('dirty'), target: 'reloading' },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => changedFields(context.saved!, context.draft!),
        onDone: { target: 'ready', actions: 'setSaved' },
        onError: { target: 'ready', actions: 'setSaveError' },
      },
    },
  },
});
