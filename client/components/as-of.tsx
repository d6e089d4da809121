// The store as of a moment: the time control (date and time picker plus a
// scrubber over the last 90 days with each day's changes marked), the banner that says which
// moment is shown and returns to live, and links that keep the moment (?asOf= in the URL).
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AS_OF_SCRUB_DAYS, type EventCountsByDay } from '../../shared/inventory-history';
import { formatDateTimeSeconds } from '../lib/format';
import { historyApi } from './history-api';
import { useSession } from '../lib/session-context';

const DAY = 86_400_000;

/** The moment shown (ISO), or null when live. */
export function useAsOf(): string | null {
  const [params] = useSearchParams();
  const value = params.get('asOf');
  return value && !Number.isNaN(Date.parse(value)) ? value : null;
}

/** A link target that keeps the moment. */
export function withAsOf(path: string, asOf: string | null): string {
  if (!asOf) return path;
  return `${path}${path.includes('?') ? '&' : '?'}asOf=${encodeURIComponent(asOf)}`;
}

/** A moment as every screen writes dates (client/lib/format.ts), to the second. */
export const formatMoment = (iso: string) => formatDateTimeSeconds(iso);

/** yyyy-MM-ddTHH:mm:ss in local time, as a datetime-local input with seconds wants it. */
const toLocalInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
};

export function AsOfBanner({ asOf }: { asOf: string }) {
  const [, setParams] = useSearchParams();
  return (
    <div className="as-of-banner" role="status">
      <span>
        Showing the store <strong>as of {formatMoment(asOf)}</strong> · read-only
      </span>
      <span className="as-of-banner-actions">
        <Link className="btn btn-secondary btn-sm" to={`/inventory/changes?from=${encodeURIComponent(asOf)}`}>
          Compare with now
        </Link>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => setParams((p) => (p.delete('asOf'), p))}
        >
          Back to live
        </button>
      </span>
    </div>
  );
}

/** The time control: pick a moment, or scrub the last 90 days (bars: changes per day). */
export function AsOfControl() {
  // Stock as of a moment is read as the store's totals: not for those whose role holds at
  // some sites only (roles per site; the server refuses it them).
  const { user } = useSession();
  if (user.siteRoles) return null;
  return <AsOfScrubber />;
}

function AsOfScrubber() {
  const asOf = useAsOf();
  const [, setParams] = useSearchParams();
  const [open, setOpen] = useState(Boolean(asOf));
  const [counts, setCounts] = useState<EventCountsByDay | null>(null);
  const now = Date.now();
  // The scrubber begins at the store's first record when that is within the window: earlier
  // there is nothing to show (the server refuses such a moment), and a young store's
  // scrubber then spans its own few days, fine enough to pick a time today.
  const first = counts?.firstRecordAt ? Date.parse(counts.firstRecordAt) : null;
  const windowStart = now - AS_OF_SCRUB_DAYS * DAY;
  const start = first !== null && first > windowStart ? first : windowStart;
  const [draft, setDraft] = useState(() => (asOf ? Date.parse(asOf) : now));
  // Moments this control put in the URL that have not rendered yet ('live' for none). The
  // router renders a new address at low priority: on a slow phone it can arrive after a newer
  // move of the scrubber (End, then Home), and must not set the draft back to its moment.
  const asked = useRef(new Set<string>());
  // The draft follows the moment in the URL, not the clock: keyed on Date.now(), every render
  // while live set a new draft and so asked for another render (on a slow phone, a render
  // loop that kept the CPU busy and threw away each move of the scrubber).
  useEffect(() => {
    if (asked.current.delete(asOf ?? 'live')) return; // ours: the draft holds it or a newer move
    asked.current.clear();
    setDraft(asOf ? Date.parse(asOf) : Date.now());
  }, [asOf]);
  useEffect(() => {
    if (open && !counts) historyApi.counts().then(setCounts, () => setCounts({ firstRecordAt: null, days: [] }));
  }, [open, counts]);
  const go = (ms: number) =>
    setParams((p) => {
      const before = p.get('asOf') ?? 'live';
      if (ms >= Date.now() - 1000) p.delete('asOf');
      else p.set('asOf', new Date(Math.max(ms, first ?? ms)).toISOString());
      const after = p.get('asOf') ?? 'live';
      if (after !== before) asked.current.add(after);
      return p;
    });
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary as-of-toggle" onClick={() => setOpen(true)}>
        View as of…
      </button>
    );
  }
  const days = Math.max(1, Math.ceil((now - start) / DAY));
  const max = Math.max(1, ...(counts?.days.map((d) => d.events) ?? [1]));
  const byDay = new Map(counts?.days.map((d) => [d.day, d.events]) ?? []);
  return (
    <div className="as-of-control" aria-label="Time control">
      <label className="as-of-picker">
        <span>As of</span>
        <input
          type="datetime-local"
          aria-label="As of date and time"
          step={1}
          value={toLocalInput(draft)}
          min={first !== null ? toLocalInput(first) : undefined}
          max={toLocalInput(now)}
          onChange={(e) => {
            const ms = Date.parse(e.target.value);
            if (!Number.isNaN(ms)) go(Math.min(ms, now));
          }}
        />
      </label>
      <div className="as-of-scrubber">
        {/* Changes per day; a store a day old has one day, and one bar across says nothing. */}
        {days > 1 ? (
          <svg className="as-of-counts" viewBox={`0 0 ${days} 20`} preserveAspectRatio="none" aria-hidden="true">
            {Array.from({ length: days }, (_, i) => {
              const day = new Date(now - (days - 1 - i) * DAY).toISOString().slice(0, 10);
              const h = ((byDay.get(day) ?? 0) / max) * 20;
              return <rect key={day} x={i + 0.1} y={20 - h} width={0.8} height={h} />;
            })}
          </svg>
        ) : null}
        <input
          type="range"
          aria-label={start === windowStart ? 'Scrub the last 90 days' : 'Scrub since the first record'}
          min={start}
          max={now}
          step={60_000}
          value={Math.max(start, draft)}
          onChange={(e) => setDraft(Number(e.target.value))}
          onPointerUp={() => go(draft)}
          onKeyUp={() => go(draft)}
        />
        <div className="as-of-scale">
          <span>
            {start === windowStart ? '90 days ago' : `first record, ${formatMoment(new Date(start).toISOString())}`}
          </span>
          <span>now</span>
        </div>
      </div>
      {asOf ? null : (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOpen(false)}>
          Close
        </button>
      )}
    </div>
  );
}
