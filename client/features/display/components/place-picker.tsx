// What the wall shows: the whole store, a site, or a location (with those inside it). The
// choice lives in the URL (?siteId= or ?locationId=), so a wall set up once keeps it across
// reloads and restarts. Offered only where there is a choice: several sites or locations
// (display-place.ts placeChoices).
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate, useLocation } from 'react-router-dom';
import { placeOfValue, placeValue, searchWithPlace, type DisplayPlaceQuery } from '../display-place';
import { placeChoicesMachine } from '../place-choices.machine';

export function PlacePicker({ place }: { place: DisplayPlaceQuery }) {
  const choicesRef = useActorRef(placeChoicesMachine);
  const choices = useSelector(choicesRef, (s) => s.context.choices);
  const navigate = useNavigate();
  const { search } = useLocation();
  if (choices.length === 0) return null;
  const value = placeValue(place);
  return (
    <label className="display-place-picker">
      <span>Showing</span>
      <select
        value={value}
        data-testid="display-place"
        onChange={(e) =>
          navigate(`/display${searchWithPlace(search, placeOfValue(e.target.value))}`, { replace: true })
        }
      >
        <option value="">Whole store</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {`${'\u00a0\u00a0'.repeat(c.depth)}${c.label}`}
          </option>
        ))}
        {value && !choices.some((c) => c.value === value) ? <option value={value}>A place not listed</option> : null}
      </select>
    </label>
  );
}
