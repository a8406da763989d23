/**
 * Docs that run: every ```console block in README.md and docs/*.md is run, each `$ ` line as a shell
 * command from the project root, with `atlevel` (and `npx atlevel`) the built CLI (bin/atlevel.js).
 * The lines shown after a command must be the start of what it prints (stdout and stderr together, as
 * a terminal shows them; a `...` line ends what is shown), and it must end with the exit code the
 * block declares (`<!-- console: exit N -->` on the line before the block; 0 when none is declared),
 * or that a `$ echo $?` after it shows. A line ending in `\` continues the command on the next.
 * A block that needs what a test must not use (a server, the network, a database, a corpus not in the
 * repository) says so with `<!-- console: skip REASON -->` on the line before it, and is reported
 * here as skipped with that reason. `npm test` builds first (pretest).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

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
}

/** The console blocks of one Markdown file, with the markers on the line before each. */
function consoleBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```console') continue;
    const marker = /^<!--\s*console:\s*(skip|exit)\s*(.*?)\s*-->$/.exec(lines[i - 1]?.trim() ?? '');
    const start = i;
    const examples: { command: string; shown: string[] }[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) {
      const l = lines[i] ?? '';
      if (l.startsWith('$ ')) {
        // A command continued on the next lines (`\` at the end) is one command.
        let command = l.slice(2);
        while (command.endsWith('\\') && i + 1 < lines.length)
          command = `${command.slice(0, -1)} ${lines[++i]?.trim()}`;
        examples.push({ command, shown: [] });
      } else examples.at(-1)?.shown.push(l);
    }
    blocks.push({
      file,
      line: start + 1,
      examples,
      exit: marker?.[1] === 'exit' ? Number(marker[2]) : 0,
      ...(marker?.[1] === 'skip' ? { skip: marker[2] || 'marked skip' } : {}),
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
const shims = mkdtempSync(join(tmpdir(), 'atlevel-docs-'));
afterAll(() => rmSync(shims, { recursive: true, force: true }));
writeFileSync(
  join(shims, 'atlevel'),
  `#!/bin/sh\nexec "${process.execPath}" "${join(projectRoot, 'bin/atlevel.js')}" "$@"\n`,
);
chmodSync(join(shims, 'atlevel'), 0o755);

function run(command: string): { code: number | null; output: string } {
  const r = spawnSync('sh', ['-c', `${command.replace(/^npx atlevel\b/, 'atlevel')} 2>&1`], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, PATH: `${shims}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
  });
  return { code: r.status, output: r.stdout };
}

/** Trailing spaces are not part of what a reader sees. */
const tidy = (lines: readonly string[]) => lines.map((l) => l.trimEnd());

describe('console examples in README.md and docs/', () => {
  it('there are some, and every marker is well formed', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(Number.isInteger(b.exit), `${b.file}:${b.line}`).toBe(true);
  });

  for (const block of blocks) {
    block.examples.forEach((ex, k) => {
      const name = `${block.file}:${block.line} $ ${ex.command}`;
      // `$ echo $?` shows the exit code of the command before it: checked with that command.
      if (ex.command === 'echo $?') return;
      const next = block.examples[k + 1];
      const exit = next?.command === 'echo $?' ? Number(next.shown[0]) : block.exit;
      if (block.skip) {
        it.skip(`${name} (skipped: ${block.skip})`, () => {});
        return;
      }
      it(name, () => {
        const { code, output } = run(ex.command);
        const shown = tidy(ex.shown);
        const cut = shown.indexOf('...');
        const expected = cut === -1 ? shown : shown.slice(0, cut);
        while (expected.length > 0 && expected.at(-1) === '') expected.pop();
        const real = tidy(output.split('\n'));
        expect(real.slice(0, expected.length).join('\n'), output).toBe(expected.join('\n'));
        expect(code, output).toBe(exit);
      });
    });
  }
});
