// One clock for every rotating list on the wall, so their pages turn together.
import { useEffect, useState } from 'react';

export function useRotationTick(everyMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return tick;
}
