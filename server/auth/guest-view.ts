// What a guest sees. Guests are anonymous sign-ins (anyone holding the public web API key,
// once a manager allows guest sign-in): they may look at stock, but never learn who the staff
// are and never take a copy of the store's data. One place decides it for every route:
//   - routes marked `config: { export: true }` (CSV downloads) refuse guests with 403;
//   - every JSON answer to a guest has its people taken out (hidePeople): the activity log's
//     userId/userName, history actors, "reverted by", "changed since by", counters' names,
//     and the "by {name}" of an activity entry's sentence (its `summary` and `details`).
// The live feed does the same with its own frames (server/realtime/feed-messages.ts).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors.js';
import { isSentence, sentenceText, withoutAuthor } from '../../shared/change-sentence.js';
import type { Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route hands out a copy of store data (a download): never to guests. */
    export?: boolean;
  }
}

/** Who did something, as a guest sees it: someone on the staff, never a name or a uid. */
export const STAFF_MEMBER = 'Staff member';

export const GUEST_EXPORT_REFUSED = "Guests can't export data";

/** An anonymous sign-in (or the guest role): the read-only visitor guest sign-in lets in. */
export function isGuest(principal: Pick<Principal, 'provider' | 'role'> | null | undefined): boolean {
  return !!principal && (principal.provider === 'anonymous' || principal.role === 'guest');
}

/** The fields that name a person, and what a guest gets instead. */
const PERSON_FIELDS: Record<string, (value: unknown) => unknown> = {
  userName: () => STAFF_MEMBER,
  userId: () => null,
  actor: (value) => (typeof value === 'string' ? STAFF_MEMBER : { uid: null, name: STAFF_MEMBER }),
  by: () => STAFF_MEMBER,
  name: () => STAFF_MEMBER,
  countedBy: () => STAFF_MEMBER,
  startedBy: () => STAFF_MEMBER,
  approvedBy: () => STAFF_MEMBER,
};

/** Fields whose value is an object naming a person (`revertedBy: {name, at}`, `changedSince: {by, at}`). */
const PERSON_OBJECTS = new Set(['revertedBy', 'changedSince']);

/**
 * A copy of a JSON answer with every person replaced by "Staff member". Field names decide:
 * `userName`/`userId` (activity entries), `actor`, `countedBy`, `startedBy`, `approvedBy`,
 * the `name`/`by` inside `revertedBy`/`changedSince`, and the author part of a `summary`
 * sentence (with its `details` joined again). Item and category names are kept.
 */
export function hidePeople(value: unknown, personObject = false): unknown {
  if (Array.isArray(value)) return value.map((v) => hidePeople(v));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const hide = PERSON_FIELDS[key];
    if (hide && field !== null && field !== undefined && (personObject || (key !== 'name' && key !== 'by')))
      out[key] = hide(field);
    else out[key] = PERSON_OBJECTS.has(key) ? hidePeople(field, true) : hidePeople(field);
  }
  // An activity entry's sentence names its author (shared/change-sentence.ts): that part, and the text joined from the parts.
  if (isSentence(out.summary)) {
    const summary = withoutAuthor(out.summary, STAFF_MEMBER);
    out.summary = summary;
    if (typeof out.details === 'string') out.details = sentenceText(summary);
  }
  return out;
}

function refuseGuestExport(request: FastifyRequest): void {
  if (request.routeOptions.config?.export && isGuest(request.principal)) throw new ForbiddenError(GUEST_EXPORT_REFUSED);
}

/** Registered after the auth plugin, so the principal is known when it runs. */
export const guestView = fp(async (app) => {
  app.addHook('onRequest', async (request) => refuseGuestExport(request));
  app.addHook('preSerialization', async (request, _reply, payload) =>
    isGuest(request.principal) ? hidePeople(payload) : payload,
  );
});
