// The location labels page: load the site's locations (or a location and those inside it),
// draw their codes, then let the user untick locations and pick the label stock before
// printing. Every location starts ticked.
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../lib/api-client';
import { DEFAULT_PRESET, type LabelPresetId } from './label-presets';
import {
  drawLocationCodes,
  loadLocationLabels,
  type LocationCodes,
  type LocationLabel,
  type LocationLabels,
  type LocationSource,
} from './location-labels';

export interface LocationLabelsContext {
  source: LocationSource;
  title: string;
  labels: LocationLabel[];
  codes: Record<string, LocationCodes>;
  /** Ids of the ticked locations. */
  selected: string[];
  presetId: LabelPresetId;
  error: string | null;
}

export type LocationLabelsEvent =
  | { type: 'TOGGLE'; id: string }
  | { type: 'SELECT_ALL'; selected: boolean }
  | { type: 'SET_PRESET'; presetId: LabelPresetId }
  | { type: 'RETRY' };

export const locationLabelsMachine = setup({
  types: {
    context: {} as LocationLabelsContext,
    events: {} as LocationLabelsEvent,
    input: {} as { source: LocationSource },
  },
  actors: {
    load: fromPromise<LocationLabels, LocationSource>(({ input }) => loadLocationLabels(input)),
    draw: fromPromise<Record<string, LocationCodes>, LocationLabel[]>(({ input }) => drawLocationCodes(input)),
  },
}).createMachine({
  id: 'locationLabels',
  context: ({ input }) => ({
    source: input.source,
    title: '',
    labels: [],
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
            labels: ({ event }) => event.output.labels,
            selected: ({ event }) => event.output.labels.map((label) => label.id),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to load locations') }),
        },
      },
    },
    drawing: {
      invoke: {
        src: 'draw',
        input: ({ context }) => context.labels,
        onDone: { target: 'ready', actions: assign({ codes: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Could not draw the codes') }),
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
            selected: ({ context, event }) => (event.selected ? context.labels.map((label) => label.id) : []),
          }),
        },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});

/** The ticked locations, in tree order. */
export function selectedLabels(context: Pick<LocationLabelsContext, 'labels' | 'selected'>): LocationLabel[] {
  const ticked = new Set(context.selected);
  return context.labels.filter((label) => ticked.has(label.id));
}
