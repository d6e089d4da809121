// A site or location form (add, edit, move): sends its write, and keeps the server's refusal
// to show in place: at the input it names (`field`), else above the buttons.
import { assign, fromPromise, setup } from 'xstate';
import type { Location, Site } from '../../../shared/sites';
import { errorMessage } from '../../lib/api-client';
import { refusedField, type RefusedField } from '../../lib/refused-field';
import { placesApi, type PlaceWrite } from './api';

export interface PlaceFormContext {
  error: string | null;
  refused: RefusedField | null;
  saved: Site | Location | null;
}

export const placeFormMachine = setup({
  types: {
    context: {} as PlaceFormContext,
    events: {} as { type: 'SUBMIT'; write: PlaceWrite } | { type: 'INVALID'; refused: RefusedField },
  },
  actors: {
    save: fromPromise<Site | Location, PlaceWrite>(({ input }) => placesApi.write(input)),
  },
  actions: {
    clearError: assign({ error: null, refused: null }),
    setInvalid: assign({
      refused: ({ event }) => (event.type === 'INVALID' ? event.refused : null),
      error: null,
    }),
    setSaved: assign({ saved: ({ event }) => (event as unknown as { output: Site | Location }).output }),
    setError: assign(({ event }) => {
      const error = (event as unknown as { error: unknown }).error;
      const refused = refusedField(error);
      return { refused, error: refused ? null : errorMessage(error, 'Failed to save') };
    }),
  },
}).createMachine({
  id: 'placeForm',
  context: { error: null, refused: null, saved: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: { target: 'saving', actions: 'clearError' },
        INVALID: { actions: 'setInvalid' },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ event }) => (event as { write: PlaceWrite }).write,
        onDone: { target: 'done', actions: 'setSaved' },
        onError: { target: 'editing', actions: 'setError' },
      },
    },
    done: { type: 'final' },
  },
});
