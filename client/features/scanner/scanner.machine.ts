// The scanner sheet: camera (or a typed code when there is no camera) -> lookup -> the
// item's quick sheet (-1, +1, Set count) or "unknown code". A code can also arrive from a
// hardware scanner at any time (LOOKUP), which starts a fresh lookup wherever the sheet
// is. Opening the found item's page is an action the component provides (navigation).
import { assign, fromPromise, setup } from 'xstate';
import type { Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { applyQuickAdjustment, lookUpCode, type AdjustOutcome, type LookupResult, type QuickAdjustment } from './api';
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
  | { type: 'CLOSE' };

export const scannerMachine = setup({
  types: {
    context: {} as ScannerContext,
    events: {} as ScannerEvent,
    input: {} as { start: ScannerStart; origin: string },
  },
  actors: {
    camera: cameraScanner,
    lookup: fromPromise<LookupResult, { code: string; origin: string }>(({ input }) =>
      lookUpCode(parseScannedCode(input.code, input.origin)),
    ),
    adjust: fromPromise<AdjustOutcome, { itemId: string; adjustment: QuickAdjustment }>(({ input }) =>
      applyQuickAdjustment(input.itemId, input.adjustment),
    ),
  },
  actions: {
    // Provided by the component: navigate to the item's page.
    openItem: (_, _params: { itemId: string }) => {},
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
  }),
  initial: 'starting',
  on: {
    LOOKUP: {
      target: '.lookingUp',
      guard: ({ event }) => event.code.trim() !== '',
      actions: assign({ code: ({ event }) => event.code.trim() }),
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
          { target: 'unknown' },
        ],
        onError: {
          target: 'failed',
          actions: assign({ lookupError: ({ event }) => errorMessage(event.error, 'Could not look the code up') }),
        },
      },
    },
    found: {
      initial: 'ready',
      on: { SCAN_AGAIN: 'camera' },
      states: {
        ready: {
          on: {
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
            input: ({ context }) => ({ itemId: context.item!.id, adjustment: context.adjustment! }),
            onDone: {
              target: 'ready',
              actions: [
                assign({ item: ({ event }) => event.output.item }),
                ({ event }) => {
                  const { item, changed } = event.output;
                  if (changed) toast.success(`Stock updated: ${item.name} now ${item.quantity}`);
                  else toast.info(`Count matches: ${item.name} has ${item.quantity}`);
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
