/**
 * What the live client (src/live) reads its answers with: the sources' own streaming JSON reader,
 * tree limits, size cap and kind schemas, handed to it (AnswerReading) so a cluster's answers are
 * held to exactly the rules a file's are, and the client never imports the sources.
 */
import type { AnswerReading } from '../live/index.js';
import { formatBytes, MAX_PARSED_BYTES } from './bytes.js';
import { JsonItemsReader, NotStreamable } from './json-items.js';
import { checkTree, ItemTreeLimits } from './tree-limits.js';
import { validateObject } from './validate.js';

export const LIVE_READING: AnswerReading = {
  maxResponseBytes: MAX_PARSED_BYTES,
  formatBytes,
  checkTree,
  listReader: (file, budget, largeItemBytes, onItems) => {
    const limits = new ItemTreeLimits(file, budget);
    const reader = new JsonItemsReader(
      (batch) => {
        for (const item of batch) limits.check(item);
        onItems(batch);
      },
      { largeItemBytes },
    );
    return { write: (chunk) => reader.write(chunk), end: () => reader.end().members };
  },
  isNotAList: (err): err is Error => err instanceof NotStreamable,
  validate: validateObject,
};
