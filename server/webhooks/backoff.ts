// When to try a failing endpoint again: exponential backoff with jitter (half the delay is
// random, so endpoints that failed together do not retry in lockstep), never sooner than the
// receiver's Retry-After, and never beyond the retry window.
export interface BackoffPolicy {
  retryBaseMs: number;
  retryMaxMs: number;
}

/** Delay before the next attempt, after `attempts` failed ones (1 = the first failed). */
export function retryDelayMs(
  policy: BackoffPolicy,
  attempts: number,
  retryAfterMs: number | null,
  random = Math.random,
): number {
  const exponential = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** Math.min(attempts - 1, 40));
  const jittered = exponential / 2 + (random() * exponential) / 2;
  return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, policy.retryMaxMs)));
}
