/**
 * Vitest global setup: every test file's scratch folders (mkdtemp under os.tmpdir(): kubeconfigs,
 * kubectl's private HOMEs, bad inputs, recordings) go under one folder made for this test run, which
 * is removed when the run ends. Many helpers make a folder per call and cannot know when the last
 * test using it is done; without this, each `npm test` left hundreds of folders in /tmp.
 * os.tmpdir() reads TMPDIR on every call, and the test workers are started after this runs, so they
 * inherit it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'atlevel-tests-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
