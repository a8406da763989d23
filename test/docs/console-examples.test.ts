/**
 * Docs that run: every ```console block in README.md and docs/*.md is run, each `$ ` line as a shell
 * command from the project root, with `atlevel` (and `npx atlevel`) the built CLI (bin/atlevel.js).
 * The lines shown after a command are what it prints (stdout and stderr together, as a terminal shows
 * them), from its first line on: the real output may go on after them. A `...` line (indented or not)
 * stands for lines left out: the lines shown after it must come later in the real output, together
 * and in the order shown; output that opens with `...` is an excerpt from anywhere. A line ending in
 * `\` continues the command on the next.
 *
 * Comments on the lines just before a block say how to run it, one per line:
 * - `<!-- console: exit N -->`: every command ends with exit code N (0 when none is declared), unless
 *   a `$ echo $?` after a command shows its own.
 * - `<!-- console: skip REASON -->`: the block needs what a test must not use (a server, the network,
 *   a database, a corpus not in the repository); it is reported here as skipped with that reason.
 * - `<!-- console: fixtures DIR -->`: the block reads the real public data the tests use (see
 *   test/helpers/fixtures.ts) and runs in its folder DIR. Without that data it is skipped, saying so.
 * - `<!-- console: scratch [MAKER] -->`: the block runs in a new temporary folder, its commands'
 *   current folder and $HOME, which MAKER (test/docs/scratch.ts) first fills with the files the
 *   example reads, and which links to the repository's examples/ and test/ so that their paths work
 *   as in the other blocks. What a command writes (a store, a kubeconfig's default place) stays there.
 *   Its bin/ is first on PATH, so a maker may give the block a command a reader has (a recorded oc).
 *   The folder's path is shown as /home/me, a reader's home folder.
 * A block with a marker that is not one of these, or is malformed, fails without being run.
 *
 * Commands run with NO_COLOR set and without the variables that would point them at the reader's
 * own settings, stores or cluster (ATLEVEL_*, XDG_*, KUBECONFIG, KUBERNETES_SERVICE_*).
 * `npm test` builds first (pretest).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir, NO_FIXTURES, projectRoot } from '../helpers/fixtures.js';
import { MAKERS } from './scratch.js';

/** How a scratch folder's path is shown in the docs. */
const HOME_SHOWN = '/home/me';

interface Example {
  readonly command: string;
  /** The lines shown after the command, up to the next command or the end of the block. */
  readonly shown: readonly string[];
}

interface Block {
  readonly file: string;
  readonly line: number;
  readonly examples: readonly Example[];
  readonly exit: number;
  readonly skip?: string;
  /** The folder of the public fixtures the block runs in. */
  readonly fixtures?: string;
  /** The maker of the block's scratch folder ('' for an empty one). */
  readonly scratch?: string;
  /** Markers that are not one of the above, or whose argument is wrong. */
  readonly badMarkers: readonly string[];
}

const MARKER = /^<!--\s*console:\s*(\S+)\s*(.*?)\s*-->$/;

/** The console blocks of one Markdown file, with the markers on the lines before each. */
function consoleBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```console') continue;
    const markers = new Map<string, string>();
    const badMarkers: string[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const m = MARKER.exec(lines[j]?.trim() ?? '');
      if (!m) break;
      const [, word = '', arg = ''] = m;
      const known = ['exit', 'skip', 'fixtures', 'scratch'].includes(word);
      const argOk =
        word === 'exit'
          ? /^\d+$/.test(arg)
          : word === 'fixtures'
            ? arg !== ''
            : word !== 'scratch' || arg === '' || MAKERS.has(arg);
      if (!known || !argOk || markers.has(word)) badMarkers.push(m[0]);
      else markers.set(word, arg);
    }
    // A block runs in one folder: the fixtures' or a scratch one.
    if (markers.has('fixtures') && markers.has('scratch')) badMarkers.push('fixtures with scratch');
    const start = i;
    // A block inside a list item is indented as the item's text; its lines are read without that.
    const indent = /^ */.exec(lines[i] ?? '')?.[0].length ?? 0;
    const examples: { command: string; shown: string[] }[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) {
      const raw = lines[i] ?? '';
      const l = raw.slice(Math.min(indent, /^ */.exec(raw)?.[0].length ?? 0));
      if (l.startsWith('$ ')) {
        // A command continued on the next lines (`\` at the end) is one command.
        let command = l.slice(2);
        while (command.endsWith('\\') && i + 1 < lines.length)
          command = `${command.slice(0, -1)} ${lines[++i]?.trim()}`;
        examples.push({ command, shown: [] });
      } else examples.at(-1)?.shown.push(l);
    }
    const skip = markers.get('skip');
    const fixtures = markers.get('fixtures');
    const scratch = markers.get('scratch');
    blocks.push({
      file,
      line: start + 1,
      examples,
      exit: Number(markers.get('exit') ?? 0),
      ...(skip !== undefined ? { skip: skip || 'marked skip' } : {}),
      ...(fixtures !== undefined ? { fixtures } : {}),
      ...(scratch !== undefined ? { scratch } : {}),
      badMarkers,
    });
  }
  return blocks;
}

const docs = [
  'README.md',
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const blocks = docs.flatMap((f) => consoleBlocks(f, readFileSync(join(projectRoot, f), 'utf8')));

// `atlevel` on PATH is the built CLI; `npx atlevel` is the same (npx is never run).
const work = mkdtempSync(join(tmpdir(), 'atlevel-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const shims = join(work, 'bin');
mkdirSync(shims);
writeFileSync(
  join(shims, 'atlevel'),
  `#!/bin/sh\nexec "${process.execPath}" "${join(projectRoot, 'bin/atlevel.js')}" "$@"\n`,
);
chmodSync(join(shims, 'atlevel'), 0o755);

/** Each scratch block's folder, made (and filled) when its first command runs. */
const scratchDirs = new Map<Block, string>();
function scratchDir(block: Block, maker: string): string {
  let dir = scratchDirs.get(block);
  if (dir === undefined) {
    dir = join(work, `scratch-${scratchDirs.size}`);
    mkdirSync(dir);
    for (const name of ['examples', 'test']) symlinkSync(join(projectRoot, name), join(dir, name));
    if (maker !== '') MAKERS.get(maker)?.(dir);
    scratchDirs.set(block, dir);
  }
  return dir;
}

/** Variables that would point a command at the reader's own settings, stores or cluster. */
const PRIVATE_ENV = /^(ATLEVEL_|XDG_|KUBECONFIG$|KUBERNETES_SERVICE_)/;

function run(command: string, cwd: string, home?: string): { code: number | null; output: string } {
  // A scratch folder's bin/ comes first: a maker may put there what a reader has on PATH (oc).
  const path = `${home === undefined ? '' : `${join(home, 'bin')}:`}${shims}:${process.env.PATH ?? ''}`;
  const env: NodeJS.ProcessEnv = { PATH: path, NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env))
    if (!PRIVATE_ENV.test(name) && !(name in env)) env[name] = value;
  if (home !== undefined) env.HOME = home;
  // The newline ends a `# comment` the command may carry, which would otherwise swallow the `2>&1`.
  const r = spawnSync('sh', ['-c', `{ ${command.replace(/^npx atlevel\b/, 'atlevel')}\n} 2>&1`], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env,
  });
  if (r.error) throw r.error;
  // A command that asks for its folder gets the path with links resolved, which may differ.
  const output =
    home === undefined
      ? r.stdout
      : r.stdout.replaceAll(realpathSync(home), HOME_SHOWN).replaceAll(home, HOME_SHOWN);
  return { code: r.status, output };
}

/** Trailing spaces are not part of what a reader sees. */
const tidy = (lines: readonly string[]) => lines.map((l) => l.trimEnd());

/**
 * Checks that the shown lines are in the real output as the header says: the runs of lines between
 * `...` lines appear whole and in order, the first at the top unless the shown lines open with `...`.
 */
function expectShown(shown: readonly string[], real: readonly string[], output: string): void {
  const runs: string[][] = [[]];
  for (const l of shown) {
    if (l.trim() === '...') runs.push([]);
    else runs.at(-1)?.push(l);
  }
  const last = runs.at(-1) ?? [];
  while (last.length > 0 && last.at(-1) === '') last.pop();
  const [first = [], ...rest] = runs;
  expect(real.slice(0, first.length).join('\n'), output).toBe(first.join('\n'));
  let at = first.length;
  for (const part of rest) {
    if (part.length === 0) continue;
    const found = real.findIndex((_, k) => k >= at && part.every((l, n) => real[k + n] === l));
    if (found === -1) {
      expect.fail(
        `these lines, shown after a "..." line, are not in the rest of the output, together and in order:\n${part.join('\n')}\n\n--- output:\n${output}`,
      );
    }
    at = found + part.length;
  }
}

describe('console examples in README.md and docs/', () => {
  it('there are some, and every marker is well formed', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(b.badMarkers, `${b.file}:${b.line}`).toEqual([]);
  });

  const haveFixtures = fixturesDir();
  for (const block of blocks) {
    block.examples.forEach((ex, k) => {
      const name = `${block.file}:${block.line} $ ${ex.command}`;
      // `$ echo $?` shows the exit code of the command before it: checked with that command.
      if (ex.command === 'echo $?') return;
      const next = block.examples[k + 1];
      const exit = next?.command === 'echo $?' ? Number(next.shown[0]) : block.exit;
      const skip =
        block.skip ?? (block.fixtures !== undefined && haveFixtures === undefined ? NO_FIXTURES : undefined);
      if (block.badMarkers.length > 0) {
        // A marker misspelt might have meant skip or scratch: running the block anyway could reach
        // what the marker was there to keep it from.
        it(name, () => expect.fail(`not run: a marker is not well formed: ${block.badMarkers.join(' ')}`));
        return;
      }
      if (skip !== undefined) {
        it.skip(`${name} (skipped: ${skip})`, () => {});
        return;
      }
      it(name, { timeout: 180_000 }, () => {
        const home = block.scratch === undefined ? undefined : scratchDir(block, block.scratch);
        const cwd =
          home ?? (block.fixtures !== undefined ? join(haveFixtures ?? '', block.fixtures) : projectRoot);
        const { code, output } = run(ex.command, cwd, home);
        expectShown(tidy(ex.shown), tidy(output.split('\n')), output);
        expect(code, output).toBe(exit);
      });
    });
  }
});
