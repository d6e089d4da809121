// The Sites dialog of a user (Users page): their role at every site, or a role per site and
// nothing at the others. Loads the sites the manager may see, keeps the choice, sends it
// (PUT /api/users/{id}/site-roles) and shows the server's refusal in place; the user's next
// request and live feed go by it.
import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../../../shared/accounts';
import type { SiteRoles } from '../../../shared/site-roles';
import type { Site } from '../../../shared/sites';
import { errorMessage } from '../../lib/api-client';
import { usersApi } from './api';

export type SitesMode = 'all' | 'some';

export interface SiteRolesContext {
  user: User;
  /** The sites offered: those the manager may see, open ones and those the user already has. */
  sites: Site[];
  mode: SitesMode;
  /** Per site id, the role given there; '' (or absent): nothing there. */
  picks: Record<string, string>;
  error: string | null;
  saved: User | null;
}

export type SiteRolesEvent =
  | { type: 'MODE'; mode: SitesMode }
  | { type: 'PICK'; siteId: string; role: string }
  | { type: 'SAVE' }
  | { type: 'RETRY' };

/** The choice as it starts: the user's own site roles. */
export function initialPicks(user: User): Record<string, string> {
  return Object.fromEntries((user.siteRoles ?? []).map((g) => [g.siteId, g.role]));
}

/** The sites a dialog lists: open ones, and archived ones the user still has a role at. */
export function offeredSites(sites: readonly Site[], user: User): Site[] {
  const had = new Set((user.siteRoles ?? []).map((g) => g.siteId));
  return sites.filter((s) => !s.archivedAt || had.has(s.id));
}

/**
 * What is sent: null for every site; else the sites given a role, those the user already
 * had first in their order (the first is where their changes that name no place go), then
 * the new ones in the list's order. Sites the manager may not see keep what they had.
 */
export function siteRolesOf(context: Pick<SiteRolesContext, 'user' | 'sites' | 'mode' | 'picks'>): SiteRoles {
  if (context.mode === 'all') return null;
  const listed = new Set(context.sites.map((s) => s.id));
  const before = context.user.siteRoles ?? [];
  const kept = before.flatMap((g) => {
    if (!listed.has(g.siteId)) return [g];
    const role = context.picks[g.siteId];
    return role ? [{ siteId: g.siteId, role }] : [];
  });
  const had = new Set(before.map((g) => g.siteId));
  const added = context.sites
    .filter((s) => !had.has(s.id) && context.picks[s.id])
    .map((s) => ({ siteId: s.id, role: context.picks[s.id]! }));
  return [...kept, ...added];
}

export const siteRolesMachine = setup({
  types: {
    context: {} as SiteRolesContext,
    events: {} as SiteRolesEvent,
    input: {} as { user: User },
  },
  actors: {
    loadSites: fromPromise<Site[]>(() => usersApi.sites()),
    save: fromPromise<User, { id: string; siteRoles: SiteRoles }>(({ input }) =>
      usersApi.setSiteRoles(input.id, input.siteRoles),
    ),
  },
  actions: {
    setSites: assign({
      sites: ({ context, event }) => offeredSites((event as unknown as { output: Site[] }).output, context.user),
    }),
    setLoadError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load sites'),
    }),
    setMode: assign({
      mode: ({ event }) => (event as Extract<SiteRolesEvent, { type: 'MODE' }>).mode,
      error: null,
    }),
    setPick: assign({
      picks: ({ context, event }) => {
        const { siteId, role } = event as Extract<SiteRolesEvent, { type: 'PICK' }>;
        return { ...context.picks, [siteId]: role };
      },
      error: null,
    }),
    clearError: assign({ error: null }),
    setSaved: assign({ saved: ({ event }) => (event as unknown as { output: User }).output }),
    setError: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, "Failed to change the user's sites"),
    }),
  },
}).createMachine({
  id: 'siteRoles',
  context: ({ input }) => ({
    user: input.user,
    sites: [],
    mode: input.user.siteRoles ? 'some' : 'all',
    picks: initialPicks(input.user),
    error: null,
    saved: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadSites',
        onDone: { target: 'editing', actions: 'setSites' },
        onError: { target: 'failed', actions: 'setLoadError' },
      },
    },
    failed: { on: { RETRY: { target: 'loading', actions: 'clearError' } } },
    editing: {
      on: {
        MODE: { actions: 'setMode' },
        PICK: { actions: 'setPick' },
        SAVE: { target: 'saving', actions: 'clearError' },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ id: context.user.id, siteRoles: siteRolesOf(context) }),
        onDone: { target: 'done', actions: 'setSaved' },
        onError: { target: 'editing', actions: 'setError' },
      },
    },
    done: { type: 'final' },
  },
});
