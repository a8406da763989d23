/**
 * status reports the moment and keeps the insight a pool's degradation raises, but says when the
 * degradation began after the update completed, and when it began after the moment assessed (the
 * snapshot's objects are then shown as last seen): whose it is, analyze says (docs/status.md).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessStatus } from '../../src/status/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const status = async (dir: string) =>
  assessStatus(await loadHistory([join(projectRoot, 'test/fixtures/analyze', dir)]));

describe('a pool degraded after the update completed', () => {
  it('paused: the Error insight stays, and a note says the degradation began after the update and after the moment', async () => {
    const s = await status('pool-after-update/paused');
    expect(s.insights.find((i) => i.kind === 'node-degraded')?.level).toBe('Error');
    expect(s.notes).toContain(
      'Pool worker has been Degraded=True since 2021-11-03T03:50:00Z, 20m49s after the update completed and after the moment assessed (objects shown as last seen): atlevel analyze says whose it is.',
    );
  });

  it('a day-2 degradation before the moment assessed: the note says only when it began', async () => {
    const s = await status('day2-degraded-after-update');
    expect(s.notes).toContain(
      'Pool master has been Degraded=True since 2021-11-03T03:36:10Z, 6m59s after the update completed: atlevel analyze says whose it is.',
    );
  });

  it('no degradation after the update: no such note', async () => {
    const s = await status('day2-kubeletconfig-after-update');
    expect(s.notes.filter((n) => n.includes('after the update completed'))).toEqual([]);
  });
});
