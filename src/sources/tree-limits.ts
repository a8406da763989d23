/**
 * The run budget's tree limits (docs/limits.md) over the items of a List read as it streams
 * (json-items.ts). Its batches go to JSON.parse without a scan of their bytes, so nothing else sees
 * how deep or how large they are: each parsed item is walked once, before anything else reads it.
 * Counted as the whole-text path counts (documents.ts assertJsonTree): a List's items sit at depth 3
 * of their document (the object, its `items` array, the item), and the nodes of every item add up to
 * the document's.
 */
import type { Budget } from '../model/index.js';

/** Depth of a List's items in their document. */
const ITEM_DEPTH = 3;

export class ItemTreeLimits {
  /** The document object and its `items` array. */
  #nodes = 2;
  readonly #file: string;
  readonly #budget: Budget;

  constructor(file: string, budget: Budget) {
    this.#file = file;
    this.#budget = budget;
  }

  /** Throws the budget's one-line InputError when `item` takes the document over a limit. */
  check(item: unknown): void {
    const { treeNodes, treeDepth } = this.#budget.limits;
    const nodes = typeof item === 'object' && item !== null ? walk(item, ITEM_DEPTH, treeDepth) : 1;
    if (nodes < 0) this.#budget.over('treeDepth', this.#file);
    this.#nodes += nodes;
    // Counted an item at a time: one item of a batch (at most a piece of tens of KiB, json-items.ts)
    // holds too few nodes to matter before the check.
    if (this.#nodes > treeNodes) this.#budget.over('treeNodes', this.#file);
  }
}

/**
 * Hold one parsed document (a live API response, a watch event) to the budget's tree limits before
 * anything reads it: throws the budget's one-line InputError naming `file`. `depth` is the depth of
 * `value` in its document (1 for the document itself).
 */
export function checkTree(value: unknown, file: string, budget: Budget, depth = 1): void {
  if (typeof value !== 'object' || value === null) return;
  const nodes = walk(value, depth, budget.limits.treeDepth);
  if (nodes < 0) budget.over('treeDepth', file);
  if (nodes > budget.limits.treeNodes) budget.over('treeNodes', file);
}

/**
 * The values in the container `v` at `depth`, itself included, or -1 when it goes deeper than
 * `maxDepth`. Recursion goes only into containers, and never past `maxDepth` frames. Only data as
 * JSON.parse makes it is walked: a member kept as bytes (model/deferred-json.ts) counts as one value
 * here and is held to the limits when it is parsed.
 */
function walk(v: object, depth: number, maxDepth: number): number {
  if (depth > maxDepth) return -1;
  let seen = 1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x !== 'object' || x === null) seen++;
      else {
        const n = walk(x, depth + 1, maxDepth);
        if (n < 0) return n;
        seen += n;
      }
    }
  } else if (Object.getPrototypeOf(v) === Object.prototype) {
    const record = v as Record<string, unknown>;
    for (const key in record) {
      const x = record[key];
      if (typeof x !== 'object' || x === null) seen++;
      else {
        const n = walk(x, depth + 1, maxDepth);
        if (n < 0) return n;
        seen += n;
      }
    }
  }
  return seen;
}
