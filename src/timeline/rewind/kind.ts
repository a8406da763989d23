/** What a kind's rewinder is: made once per rewind, it rewinds the kind's objects and may say more at the end. */
import type { KindObject, KnownKind, ObjectSnapshot, Observed } from '../../model/index.js';
import type { RewindContext } from './context.js';

interface KindRewinding<K extends KnownKind> {
  /** The objects of the kind at the moment (those created later left out); `done`: the kinds rewound so far. */
  rewind(list: readonly Observed<KindObject<K>>[], done: Partial<ObjectSnapshot>): Observed<KindObject<K>>[];
  /** Called once every kind is rewound, after the conditions' notes are said. */
  finish?(): void;
}

export interface KindRewinder<K extends KnownKind> {
  /** Kinds whose rewound objects this one reads (they are rewound first). */
  readonly needs?: readonly KnownKind[];
  readonly create: (r: RewindContext) => KindRewinding<K>;
}
