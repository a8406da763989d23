/**
 * The discrete-event core: a virtual clock in milliseconds, a binary heap of pending events ordered
 * by (time, sequence number), and the actors that own them. Nothing here knows about OpenShift.
 */
import { Rng } from './rng.js';

/** Something that does work in the model: a controller, a daemon, the upgrade test. */
export interface Actor {
  readonly id: number;
  readonly name: string;
  /** Takes part in the MCO race (exhaustive exploration may reorder its events). */
  readonly race: boolean;
}

export interface SimEvent {
  readonly at: number;
  readonly seq: number;
  readonly actor: Actor;
  /** What the event is, for traces and for the exhaustive explorer's report. */
  readonly label: string;
  readonly fn: () => void;
}

/** What one event did, collected only while the exhaustive explorer is watching. */
export interface Footprint {
  /** `Kind/name` of every object written. */
  readonly writes: Set<string>;
}

/** Chooses the next event instead of the heap's minimum (exhaustive exploration). */
export interface Picker {
  next(engine: Engine): SimEvent | undefined;
  /** Called after `ev` ran (the picker may have set `engine.footprint` to learn what it touched). */
  fired(ev: SimEvent, engine: Engine): void;
}

export class EventHeap {
  readonly items: SimEvent[] = [];

  get size(): number {
    return this.items.length;
  }

  push(ev: SimEvent): void {
    const items = this.items;
    items.push(ev);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as SimEvent;
      if (!before(ev, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = ev;
  }

  peek(): SimEvent | undefined {
    return this.items[0];
  }

  pop(): SimEvent | undefined {
    return this.removeAt(0);
  }

  /** Remove the event at heap index `i` (the exhaustive explorer takes events out of order). */
  removeAt(i: number): SimEvent | undefined {
    const items = this.items;
    const n = items.length;
    if (i >= n) return undefined;
    const out = items[i] as SimEvent;
    const last = items.pop() as SimEvent;
    if (i === n - 1) return out;
    items[i] = last;
    this.siftDown(i);
    this.siftUp(i);
    return out;
  }

  private siftUp(start: number): void {
    const items = this.items;
    let i = start;
    const ev = items[i] as SimEvent;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as SimEvent;
      if (!before(ev, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = ev;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    let i = start;
    const ev = items[i] as SimEvent;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && before(items[r] as SimEvent, items[l] as SimEvent)) c = r;
      const child = items[c] as SimEvent;
      if (!before(child, ev)) break;
      items[i] = child;
      i = c;
    }
    items[i] = ev;
  }
}

function before(a: SimEvent, b: SimEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class Engine {
  /** Virtual time in ms since the run's epoch. Only ever moves forward. */
  now = 0;
  readonly rng: Rng;
  readonly queue = new EventHeap();
  picker: Picker | undefined;
  /** Set while an exhaustive explorer wants to know what the current event touches. */
  footprint: Footprint | undefined;
  private seq = 0;
  private nextActorId = 0;
  private stopped = false;
  /** Events fired so far (a cheap measure of work, reported by the bench). */
  fired = 0;

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  actor(name: string, race = false): Actor {
    return { id: this.nextActorId++, name, race };
  }

  /** Run `fn` as `actor` after `delay` ms of virtual time. */
  schedule(delay: number, actor: Actor, label: string, fn: () => void): void {
    this.queue.push({ at: this.now + Math.max(delay, 0), seq: this.seq++, actor, label, fn });
  }

  /** Run `fn` at absolute virtual time `at` (or now, if that has passed). */
  scheduleAt(at: number, actor: Actor, label: string, fn: () => void): void {
    this.schedule(at - this.now, actor, label, fn);
  }

  stop(): void {
    this.stopped = true;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Fire events until the queue is empty, `stop()` is called, or virtual time passes `limit`. */
  run(limit: number): void {
    const queue = this.queue;
    const picker = this.picker;
    while (!this.stopped) {
      const ev = picker ? picker.next(this) : queue.pop();
      if (ev === undefined) break;
      if (ev.at > limit) {
        this.now = limit;
        break;
      }
      if (ev.at > this.now) this.now = ev.at;
      this.fired++;
      ev.fn();
      if (picker) picker.fired(ev, this);
    }
  }
}
