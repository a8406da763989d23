/**
 * stdout and stderr failing because nobody reads them any more (a closed pipe, EPIPE; a terminal that
 * hung up, EIO, as when `watch` stops on SIGHUP) end the command quietly with its own code; any other
 * failure of those streams is still an error.
 */
import { describe, expect, it } from 'vitest';
import { quietOnClosedPipe } from './pipe.js';

const failure = (code: string) => Object.assign(new Error(`write ${code}`), { code });

describe('quietOnClosedPipe', () => {
  quietOnClosedPipe();
  for (const stream of ['stdout', 'stderr'] as const)
    it(`${stream}: EPIPE and EIO are quiet, ENOSPC is not`, () => {
      expect(() => process[stream].emit('error', failure('EPIPE'))).not.toThrow();
      expect(() => process[stream].emit('error', failure('EIO'))).not.toThrow();
      expect(() => process[stream].emit('error', failure('ENOSPC'))).toThrow('write ENOSPC');
    });
});
