/**
 * The time watch stamps a transition with: the wall clock on a real cluster, as origin's monitor
 * stamps what it observes. Against `atlevel serve --replay` (docs/serve.md), whose objects move on
 * the recording's clock at N× speed, it is the replay's clock instead: read from the server's
 * read-only `GET /atlevel/replay` (recorded moment and speed), then carried forward locally.
 */
import type { LiveClient } from '../live/index.js';
import type { Millis } from '../model/index.js';

export interface Clock {
  now(): Millis;
  /** `wall clock` or `replay clock (atlevel serve, 100× speed)`. */
  readonly describe: string;
  /** Where the clock stops: a replay's end (now() stays there). */
  readonly end?: () => Millis;
}

const WALL_CLOCK: Clock = { now: () => Date.now(), describe: 'wall clock' };

interface ReplayInfo {
  readonly now: number;
  readonly speed: number;
  readonly end: number;
  readonly start: number;
  readonly applied: number;
}

async function replayInfo(client: LiveClient): Promise<ReplayInfo | undefined> {
  try {
    const p = (await client.get('/atlevel/replay')) as Partial<ReplayInfo> & { replay?: unknown };
    if (p.replay === false || typeof p.now !== 'number' || typeof p.speed !== 'number') return undefined;
    if (typeof p.end !== 'number' || typeof p.start !== 'number') return undefined;
    return p as ReplayInfo;
  } catch {
    return undefined;
  }
}

/**
 * A replay's clock: several samples, the one with the shortest round trip kept, and resynced every
 * `resyncMs` while the replay has not started (its clock stands still until then).
 */
export async function detectClock(client: LiveClient): Promise<Clock> {
  const first = await replayInfo(client);
  if (!first) return WALL_CLOCK;
  let base = {
    recorded: first.now,
    wall: performance.now(),
    started: first.applied > 0 || first.now > first.start,
  };
  let speed = first.speed;
  let end = first.end;
  const sample = async () => {
    const t0 = performance.now();
    const info = await replayInfo(client);
    const t1 = performance.now();
    if (!info) return undefined;
    speed = info.speed;
    end = info.end;
    return {
      recorded: info.now,
      wall: (t0 + t1) / 2,
      rtt: t1 - t0,
      started: info.applied > 0 || info.now > info.start,
    };
  };
  let best: { recorded: number; wall: number; rtt: number; started: boolean } | undefined;
  for (let i = 0; i < 3; i++) {
    const s = await sample();
    if (s && (!best || s.rtt < best.rtt)) best = s;
  }
  if (best) base = best;
  // Until the replay starts its clock stands still; poll until it moves, then carry it forward.
  const timer = setInterval(async () => {
    if (base.started) {
      clearInterval(timer);
      return;
    }
    const s = await sample();
    if (s) base = s;
  }, 20);
  timer.unref();
  return {
    describe: `replay clock (atlevel serve, ${speed}× speed)`,
    end: () => end,
    now: () =>
      base.started ? Math.min(end, base.recorded + (performance.now() - base.wall) * speed) : base.recorded,
  };
}
