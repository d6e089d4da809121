// A small concurrency limit: many clients reconnecting at once (a restart with hundreds of
// wall displays) must not each open a catch-up read and exhaust the connection pool.
export interface Limiter {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createLimiter(max: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    async run(work) {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else active += 1;
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next)
          next(); // hands its slot straight to the next waiter
        else active -= 1;
      }
    },
  };
}
