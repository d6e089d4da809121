// The scanner sheet: camera (or a typed code when there is no camera) -> lookup -> the
// item's quick sheet (-1, +1, Set count) or "unknown code". A code can also arrive from a
// hardware scanner at any time (LOOKUP), which starts a fresh lookup wherever the sheet
// is. Opening the found item's page is an action the component provides (navigation).
// A shelf label's code makes its location active ("put away at / move to here"), kept by the
// component across sheets (active-location.ts): an item scanned then is changed there, and
// units of it at other locations of that site can be moved there.
import { assign, fromPromise, setup } from 'xstate';
import type { Item, ItemLocations } from '../../../shared/inventory';
import type { FoundLocation } from '../../../shared/sites';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import type { ActiveLocation } from './active-location';
import {
  applyQuickAdjustment,
  itemPlaces,
  lookUpCode,
  type AdjustOutcome,
  type LookupResult,
  type QuickAdjustment,
} from './api';
import { cameraScanner } from './camera-scanner.actor';
import { parseScannedCode } from './scanned-code';

export type ScannerStart = { kind: 'camera' } | { kind: 'code'; code: string };

export interface ScannerContext {
  /** This app's origin: QR codes holding our item URLs open the item directly. */
  origin: string;
  /** The code being looked up or last looked up. */
  code: string;
  item: Item | null;
  stream: MediaStream | null;
  cameraProblem: string | null;
  lookupError: string | null;
  adjustment: QuickAdjustment | null;
  /** Where scanned items are put away or moved to; null: nowhere named. */
  active: ActiveLocation | null;
  /** Where the found item is (read when a location is active), and its units at the active one. */
  places: ItemLocations | null;
  here: number | null;
}

export type ScannerEvent =
  | { type: 'CAMERA_READY'; stream: MediaStream }
  | { type: 'CAMERA_FAILED'; message: string }
  | { type: 'DETECTED'; text: string }
  | { type: 'LOOKUP'; code: string }
  | { type: 'TYPE_CODE' }
  | { type: 'SCAN_AGAIN' }
  | { type: 'RETRY' }
  | { type: 'ADJUST'; delta: 1 | -1 }
  | { type: 'SET_COUNT'; counted: number }
  | { type: 'MOVE_HERE'; fromLocationId: string; quantity: number }
  | { type: 'CLEAR_LOCATION' }
  | { type: 'CLOSE' };

/** A found label's location as the scanner keeps it. */
export const activeOf = (found: FoundLocation): ActiveLocation => ({
  id: found.id,
  siteId: found.siteId,
  name: found.name,
  path: found.path,
});

/** The toast after a change at the quick sheet. */
export function outcomeMessage(outcome: AdjustOutcome, adjustment: QuickAdjustment, at: ActiveLocation | null): string {
  const { item, changed, here } = outcome;
  if (at && here !== undefined) {
    if (adjustment.kind === 'move') return `Moved ${adjustment.quantity} ${item.name} to ${at.name}: ${here} there`;
    if (!changed) return `Count matches: ${item.name} has ${here} at ${at.name}`;
    return `Stock updated at ${at.name}: ${item.name} now ${here} there`;
  }
  return changed
    ? `Stock updated: ${item.name} now ${item.quantity}`
    : `Count matches: ${item.name} has ${item.quantity}`;
}

export const scannerMachine = setup({
  types: {
    context: {} as ScannerContext,
    events: {} as ScannerEvent,
    input: {} as { start: ScannerStart; origin: string; active?: ActiveLocation | null },
  },
  actors: {
    camera: cameraScanner,
    lookup: fromPromise<LookupResult, { code: string; origin: string }>(({ input }) =>
      lookUpCode(parseScannedCode(input.code, input.origin)),
    ),
    adjust: fromPromise<AdjustOutcome, { itemId: string; adjustment: QuickAdjustment; locationId?: string }>(
      ({ input }) => applyQuickAdjustment(input.itemId, input.adjustment, input.locationId),
    ),
    places: fromPromise<ItemLocations, string>(({ input }) => itemPlaces(input)),
  },
  guards: {
    hasActive: ({ context }) => context.active !== null,
  },
  actions: {
    // Provided by the component: navigate to the item's page.
    openItem: (_, _params: { itemId: string }) => {},
    // Provided by the component: keep the active location for the next sheets (null: none).
    keepLocation: (_, _params: { location: ActiveLocation | null }) => {},
  },
}).createMachine({
  id: 'scanner',
  context: ({ input }) => ({
    origin: input.origin,
    code: input.start.kind === 'code' ? input.start.code.trim() : '',
    item: null,
    stream: null,
    cameraProblem: null,
    lookupError: null,
    adjustment: null,
    active: input.active ?? null,
    places: null,
    here: null,
  }),
  initial: 'starting',
  on: {
    LOOKUP: {
      target: '.lookingUp',
      guard: ({ event }) => event.code.trim() !== '',
      actions: assign({ code: ({ event }) => event.code.trim() }),
    },
    CLEAR_LOCATION: {
      actions: [assign({ active: null, here: null }), { type: 'keepLocation', params: { location: null } }],
    },
    CLOSE: '.closed',
  },
  states: {
    starting: {
      always: [{ target: 'lookingUp', guard: ({ context }) => context.code !== '' }, { target: 'camera' }],
    },
    camera: {
      entry: assign({ stream: null, cameraProblem: null }),
      exit: assign({ stream: null }),
      invoke: { src: 'camera' },
      on: {
        CAMERA_READY: { actions: assign({ stream: ({ event }) => event.stream }) },
        CAMERA_FAILED: { target: 'typing', actions: assign({ cameraProblem: ({ event }) => event.message }) },
        DETECTED: { target: 'lookingUp', actions: assign({ code: ({ event }) => event.text.trim() }) },
        TYPE_CODE: 'typing',
      },
    },
    /** No camera (denied, missing) or the user chose to type: the code field alone. */
    typing: {
      on: { SCAN_AGAIN: 'camera' },
    },
    lookingUp: {
      entry: assign({ item: null, lookupError: null }),
      invoke: {
        src: 'lookup',
        input: ({ context }) => ({ code: context.code, origin: context.origin }),
        onDone: [
          {
            guard: ({ event }) => event.output.kind === 'found',
            target: 'found',
            actions: [
              assign({ item: ({ event }) => (event.output.kind === 'found' ? event.output.item : null) }),
              {
                type: 'openItem',
                params: ({ event }) => ({ itemId: event.output.kind === 'found' ? event.output.item.id : '' }),
              },
            ],
          },
          {
            guard: ({ event }) => event.output.kind === 'location',
            target: 'locationSet',
            actions: [
              assign({
                active: ({ event }) => (event.output.kind === 'location' ? activeOf(event.output.location) : null),
              }),
              { type: 'keepLocation', params: ({ context }) => ({ location: context.active }) },
            ],
          },
          { target: 'unknown' },
        ],
        onError: {
          target: 'failed',
          actions: assign({ lookupError: ({ event }) => errorMessage(event.error, 'Could not look the code up') }),
        },
      },
    },
    /** A shelf label was scanned: its location is active; items scanned next go there. */
    locationSet: {
      on: { SCAN_AGAIN: 'camera', TYPE_CODE: 'typing' },
    },
    found: {
      initial: 'checking',
      entry: assign({ places: null, here: null }),
      on: { SCAN_AGAIN: 'camera' },
      states: {
        checking: { always: [{ guard: 'hasActive', target: 'placing' }, { target: 'ready' }] },
        /** With a location active: where the item is, for its units there and a move there. */
        placing: {
          invoke: {
            src: 'places',
            input: ({ context }) => context.item!.id,
            onDone: {
              target: 'ready',
              actions: assign({
                places: ({ event }) => event.output,
                here: ({ context, event }) =>
                  event.output.locations.find((l) => l.locationId === context.active?.id)?.quantity ?? 0,
              }),
            },
            // Without them the sheet still adjusts there; a move waits for them.
            onError: 'ready',
          },
        },
        ready: {
          on: {
            MOVE_HERE: {
              guard: 'hasActive',
              target: 'saving',
              actions: assign({
                adjustment: ({ event }) => ({
                  kind: 'move',
                  fromLocationId: event.fromLocationId,
                  quantity: event.quantity,
                }),
              }),
            },
            ADJUST: {
              target: 'saving',
              actions: assign({ adjustment: ({ event }) => ({ kind: 'delta', delta: event.delta }) }),
            },
            SET_COUNT: {
              target: 'saving',
              actions: assign({ adjustment: ({ event }) => ({ kind: 'count', counted: event.counted }) }),
            },
          },
        },
        saving: {
          invoke: {
            src: 'adjust',
            input: ({ context }) => ({
              itemId: context.item!.id,
              adjustment: context.adjustment!,
              ...(context.active ? { locationId: context.active.id } : {}),
            }),
            onDone: {
              target: 'ready',
              actions: [
                assign({
                  item: ({ event }) => event.output.item,
                  // With a location active, where it is now came with the answer.
                  here: ({ context, event }) => event.output.here ?? context.here,
                  places: ({ context, event }) => event.output.places ?? context.places,
                }),
                ({ context, event }) => {
                  const message = outcomeMessage(event.output, context.adjustment!, context.active);
                  if (event.output.changed) toast.success(message);
                  else toast.info(message);
                },
              ],
            },
            onError: {
              target: 'ready',
              actions: ({ event }) => toast.error(errorMessage(event.error, 'Could not update stock')),
            },
          },
        },
      },
    },
    unknown: {
      on: { SCAN_AGAIN: 'camera', TYPE_CODE: 'typing' },
    },
    failed: {
      on: { RETRY: 'lookingUp', SCAN_AGAIN: 'camera', TYPE_CODE: 'typing' },
    },
    closed: { type: 'final' },
  },
});
