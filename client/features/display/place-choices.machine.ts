// The places a wall display can show, loaded once for its picker: the store's active sites and
// their locations (display-place.ts placeChoices). A failed load leaves the picker out; the
// display itself goes on.
import { assign, fromPromise, setup } from 'xstate';
import { displayApi } from './api';
import { placeChoices, type PlaceChoice } from './display-place';

export const placeChoicesMachine = setup({
  types: { context: {} as { choices: PlaceChoice[] } },
  actors: {
    load: fromPromise<PlaceChoice[], void>(async () => {
      const [sites, locations] = await Promise.all([displayApi.sites(), displayApi.locations()]);
      return placeChoices(sites, locations);
    }),
  },
}).createMachine({
  id: 'placeChoices',
  context: { choices: [] },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: assign({ choices: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    ready: {},
    failed: {},
  },
});
