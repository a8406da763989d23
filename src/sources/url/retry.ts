/**
 * Retrying transient failures with exponential backoff and full jitter (each wait is a random time
 * between zero and the capped exponential step), so that many parallel downloads hitting a 429 do not
 * come back in lockstep. A server's Retry-After is honoured up to the cap.
 */
import { TransientError } from './http.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8000 };

/** The wait before attempt `n + 1` (n ≥ 1 failed attempts so far). */
export function backoffMs(
  policy: RetryPolicy,
  n: number,
  retryAfterSeconds?: number,
  random = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  const jittered = Math.floor(random() * step);
  if (retryAfterSeconds === undefined) return jittered;
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterSeconds * 1000));
}

/**
 * Run `attempt` until it succeeds, it throws something other than a TransientError, or the policy's
 * attempts are used up; then the last TransientError is thrown with the attempt count in its message.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  onRetry?: (err: TransientError, n: number) => void,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof TransientError)) throw err;
      if (n >= policy.attempts) {
        throw new TransientError(`${err.message} (after ${n} attempt${n === 1 ? '' : 's'})`);
      }
      onRetry?.(err, n);
      await sleep(backoffMs(policy, n, err.retryAfterSeconds));
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
