// The labels page: load the items (a category or chosen ids), draw their codes, then let the
// user untick items and pick the label stock before printing. Every item starts ticked.
import { assign, fromPromise, setup } from 'xstate';
import type { Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { loadLabelItems, type LabelItems, type LabelSource } from './api';
import { drawLabelCodes, type LabelCodes } from './label-codes';
import { DEFAULT_PRESET, type LabelPresetId } from './label-presets';

export interface LabelsContext {
  source: LabelSource;
  origin: string;
  title: string;
  items: Item[];
  codes: Record<string, LabelCodes>;
  /** Ids of the ticked items. */
  selected: string[];
  presetId: LabelPresetId;
  error: string | null;
}

export type LabelsEvent =
  | { type: 'TOGGLE'; id: string }
  | { type: 'SELECT_ALL'; selected: boolean }
  | { type: 'SET_PRESET'; presetId: LabelPresetId }
  | { type: 'RETRY' };

export const labelsMachine = setup({
  types: {
    context: {} as LabelsContext,
    events: {} as LabelsEvent,
    input: {} as { source: LabelSource; origin: string },
  },
  actors: {
    load: fromPromise<LabelItems, LabelSource>(({ input }) => loadLabelItems(input)),
    draw: fromPromise<Record<string, LabelCodes>, { items: Item[]; origin: string }>(({ input }) =>
      drawLabelCodes(input.items, input.origin),
    ),
  },
}).createMachine({
  id: 'labels',
  context: ({ input }) => ({
    source: input.source,
    origin: input.origin,
    title: '',
    items: [],
    codes: {},
    selected: [],
    presetId: DEFAULT_PRESET,
    error: null,
  }),
  initial: 'loading',
  on: {
    SET_PRESET: { actions: assign({ presetId: ({ event }) => event.presetId }) },
  },
  states: {
    loading: {
      entry: assign({ error: null }),
      invoke: {
        src: 'load',
        input: ({ context }) => context.source,
        onDone: {
          target: 'drawing',
          actions: assign({
            title: ({ event }) => event.output.title,
            items: ({ event }) => event.output.items,
            selected: ({ event }) => event.output.items.map((item) => item.id),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to load items') }),
        },
      },
    },
    drawing: {
      invoke: {
        src: 'draw',
        input: ({ context }) => ({ items: context.items, origin: context.origin }),
        onDone: { target: 'ready', actions: assign({ codes: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Could not draw the barcodes') }),
        },
      },
    },
    ready: {
      on: {
        TOGGLE: {
          actions: assign({
            selected: ({ context, event }) =>
              context.selected.includes(event.id)
                ? context.selected.filter((id) => id !== event.id)
                : [...context.selected, event.id],
          }),
        },
        SELECT_ALL: {
          actions: assign({
            selected: ({ context, event }) => (event.selected ? context.items.map((item) => item.id) : []),
          }),
        },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});

/** The ticked items, in list order. */
export function selectedItems(context: Pick<LabelsContext, 'items' | 'selected'>): Item[] {
  const ticked = new Set(context.selected);
  return context.items.filter((item) => ticked.has(item.id));
}
