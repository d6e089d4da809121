// The wall clock: time to the second and the date, re-rendering only itself.
import { useEffect, useState } from 'react';

const time = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const date = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric' });

export function DisplayClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="display-clock">
      <time className="display-time" dateTime={now.toISOString()}>
        {time.format(now)}
      </time>
      <span className="display-date">{date.format(now)}</span>
    </div>
  );
}
