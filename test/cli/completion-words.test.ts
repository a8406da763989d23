/**
 * The completer kubectl runs for `kubectl atlevel ... <TAB>` (src/cli/completion-words.ts): what
 * each place on a command line completes to, from the same specs as `atlevel completion bash`; the
 * directive that lets the shell complete file names for a path and forbids them elsewhere; the
 * hidden `atlevel __complete` that bin/kubectl_complete-atlevel runs, which loads only the command
 * the words name and writes nothing to stderr; and, for any words at all, an answer that ends with a
 * directive. kubectl itself running it: test/live/plugin.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { type Spec, specsOf } from '../../src/cli/completion-spec.js';
import { cobraLines, completeWords, DIRECTIVE } from '../../src/cli/completion-words.js';
import { buildProgram, main } from '../../src/cli/main.js';
import { RULE_IDS } from '../../src/invariants/index.js';
import { projectRoot } from '../helpers/fixtures.js';

let specs: Spec[] = [];
beforeAll(async () => {
  specs = specsOf(await buildProgram({ code: 0 }, 'all'));
});

/** The candidates' values and the directive for `atlevel <words>`. */
function complete(...words: string[]): { values: string[]; directive: number } {
  const c = completeWords(specs, words);
  return { values: c.candidates.map((x) => x.value), directive: c.directive };
}

const FILES = DIRECTIVE.default;
const NO_FILES = DIRECTIVE.noFiles;

describe('commands and subcommands', () => {
  it('a new first word: every command, help included, no file names', () => {
    const r = complete('');
    expect(r.values).toEqual([...Object.keys(COMMANDS), 'help']);
    expect(r.directive).toBe(NO_FILES);
  });

  it('filters by the typed prefix, with each summary as the description', () => {
    expect(complete('an')).toEqual({ values: ['analyze'], directive: NO_FILES });
    expect(complete('s')).toEqual({ values: ['status', 'simulate', 'serve', 'stats'], directive: NO_FILES });
    const [analyze] = completeWords(specs, ['an']).candidates;
    expect(analyze?.description).toBe(COMMANDS.analyze.summary);
  });

  it('subcommands at each level', () => {
    expect(complete('release', '')).toEqual({ values: ['diff', 'info'], directive: NO_FILES });
    expect(complete('release', 'd').values).toEqual(['diff']);
    expect(complete('cache', '').values).toEqual(['fetch', 'ls', 'prune']);
    expect(complete('cache', 'p').values).toEqual(['prune']);
    // A group's flag before its subcommand does not end the group.
    expect(complete('release', '--help', 'i').values).toEqual(['info']);
  });

  it('help takes command names, level by level', () => {
    expect(complete('help', '').values).toEqual([...Object.keys(COMMANDS), 'help']);
    expect(complete('help', 'rel').values).toEqual(['release']);
    expect(complete('help', 'release', '')).toEqual({ values: ['diff', 'info'], directive: NO_FILES });
    expect(complete('help', 'release', 'diff', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('help', 'nosuch', '')).toEqual({ values: [], directive: NO_FILES });
  });

  it('an unknown command or subcommand completes nothing, and no file names', () => {
    expect(complete('nosuch', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('nosuch', '-')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('release', 'nosuch', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('zz')).toEqual({ values: [], directive: NO_FILES });
  });
});

describe('flags', () => {
  it("a word starting with - completes the command's flags, long and short", () => {
    const r = complete('analyze', '-');
    expect(r.values).toEqual(expect.arrayContaining(['-o', '--output', '--out', '--rule', '-h', '--help']));
    expect(r.directive).toBe(NO_FILES);
    expect(complete('analyze', '--').values).not.toContain('-o');
    expect(complete('analyze', '--o').values).toEqual(['--output', '--out', '--offline']);
    expect(complete('status', '--det').values).toEqual(['--details']);
    expect(complete('release', 'info', '--comp').values).toEqual(['--component-for']);
    expect(complete('-').values).toEqual(['-V', '--version', '-h', '--help']);
  });

  it("with each flag's summary as the description", () => {
    const [details] = completeWords(specs, ['status', '--det']).candidates;
    expect(details?.description).toMatch(/\S/);
    expect(details?.description).not.toMatch(/[\t\n]/);
  });

  it('a flag already given is offered again', () => {
    expect(complete('analyze', '--rule', 'pool-degraded', '--ru').values).toEqual(['--rule']);
  });

  it('flags of a subcommand are its own', () => {
    expect(complete('cache', 'prune', '--').values).toEqual(
      expect.arrayContaining(['--cache-dir', '--older-than', '--help']),
    );
    expect(complete('cache', 'prune', '--rule').values).toEqual([]);
  });
});

describe("a flag's value", () => {
  it('after the flag, as its own word: the formats, rule ids, policies, scenarios', () => {
    expect(complete('analyze', '-o', '')).toEqual({
      values: ['text', 'json', 'yaml', 'junit', 'html'],
      directive: NO_FILES,
    });
    expect(complete('analyze', '--output', 'j').values).toEqual(['json', 'junit']);
    expect(complete('status', '-o', '').values).toEqual(['text', 'json', 'yaml']);
    expect(complete('analyze', '--rule', '')).toEqual({ values: [...RULE_IDS], directive: NO_FILES });
    expect(complete('analyze', '--rule', 'pool-').values).toEqual(['pool-degraded']);
    expect(complete('simulate', '--policy', 'f').values).toEqual(['fixed']);
    expect(complete('completion', '').values).toEqual(['bash', 'zsh', 'fish']);
  });

  it("a variadic flag's values run up to the next flag, as commander reads them", () => {
    expect(complete('analyze', '--rule', 'pool-degraded', 'update-')).toEqual({
      values: ['update-completed'],
      directive: NO_FILES,
    });
    expect(complete('analyze', '--rule', 'pool-degraded', '--w').values).toEqual(['--width']);
    expect(complete('analyze', '--rule', 'pool-degraded', '-o', 'json', '')).toEqual({
      values: [],
      directive: FILES,
    });
    expect(complete('stats', '--rule', 'a', 'pool-d').values).toEqual(['pool-degraded']);
  });

  it('after --flag=, written --flag=value', () => {
    expect(complete('analyze', '--output=')).toEqual({
      values: ['--output=text', '--output=json', '--output=yaml', '--output=junit', '--output=html'],
      directive: NO_FILES,
    });
    expect(complete('analyze', '--output=y').values).toEqual(['--output=yaml']);
    expect(complete('status', '--details=n').values).toEqual(['--details=none', '--details=nodes']);
    // A short flag with its value attached, as commander reads `-ojson`.
    expect(complete('analyze', '-oj').values).toEqual(['-ojson', '-ojunit']);
  });

  it('a flag that takes no value, or an unknown one, completes nothing after =', () => {
    expect(complete('analyze', '--offline=')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('analyze', '--nosuch=')).toEqual({ values: [], directive: NO_FILES });
  });

  it('a path value leaves the shell its file names; a number or a URL gets none', () => {
    for (const words of [
      ['analyze', '--out', ''],
      ['analyze', '--kubeconfig', 'x'],
      ['analyze', '--out=out/'],
      ['watch', '--record', ''],
    ])
      expect(complete(...words), words.join(' ')).toEqual({ values: [], directive: FILES });
    for (const words of [
      ['analyze', '--width', ''],
      ['analyze', '--context', ''],
      ['status', '--storage-endpoint', ''],
      ['simulate', '--seed', ''],
      ['serve', '--port', ''],
    ])
      expect(complete(...words), words.join(' ')).toEqual({ values: [], directive: NO_FILES });
  });

  it('built-in scenario names beside scenario files: the names that match, else file names', () => {
    expect(complete('simulate', '--scenario', 'pause-im')).toEqual({
      values: ['pause-image-only'],
      directive: FILES,
    });
    expect(complete('simulate', '--scenario', 'examples/').values).toEqual([]);
  });

  it('a value already given ends the flag: the next word is an operand again', () => {
    expect(complete('analyze', '-o', 'json', '')).toEqual({ values: [], directive: FILES });
    expect(complete('analyze', '--output=json', '')).toEqual({ values: [], directive: FILES });
    expect(complete('analyze', '-ojson', '')).toEqual({ values: [], directive: FILES });
    // The value is taken even when it looks like a command or a flag.
    expect(complete('release', '--help', 'diff', '-o', 'diff', '')).toEqual({ values: [], directive: FILES });
  });
});

describe('operands', () => {
  it('a path operand leaves the shell its file names', () => {
    for (const words of [
      ['analyze', ''],
      ['analyze', 'examples/'],
      ['status', 'run1', ''],
      ['release', 'diff', 'a.json', ''],
      ['diff', ''],
    ])
      expect(complete(...words), words.join(' ')).toEqual({ values: [], directive: FILES });
  });

  it('a command that takes none, or no more, completes nothing and no file names', () => {
    expect(complete('simulate', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('watch', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('completion', 'bash', '')).toEqual({ values: [], directive: NO_FILES });
    expect(complete('diff', 'a', 'b', '')).toEqual({ values: [], directive: NO_FILES });
  });

  it('after --, a word starting with - is an operand, not a flag', () => {
    expect(complete('analyze', '--', '-')).toEqual({ values: [], directive: FILES });
    expect(complete('analyze', '--', '--out', '')).toEqual({ values: [], directive: FILES });
    expect(complete('completion', '--', 'b').values).toEqual(['bash']);
  });

  it('no words at all is a new first word', () => {
    expect(complete().values).toEqual(complete('').values);
  });
});

describe('as cobra prints it', () => {
  it('a line per candidate, value TAB description, then the directive', () => {
    expect(
      cobraLines({
        candidates: [
          { value: 'analyze', description: 'read a run' },
          { value: 'json', description: '' },
        ],
        directive: NO_FILES,
      }),
    ).toBe('analyze\tread a run\njson\n:4\n');
    expect(cobraLines({ candidates: [], directive: FILES })).toBe(':0\n');
  });
});

describe('atlevel __complete, the hidden command', () => {
  let stdout = '';
  let stderr = '';
  const loads: string[] = [];
  const run = async (...words: string[]) => {
    stdout = '';
    stderr = '';
    loads.length = 0;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const load = entry.load;
      vi.spyOn(entry, 'load').mockImplementation(() => {
        loads.push(name);
        return load();
      });
    }
    const code = await main(['__complete', ...words]);
    vi.restoreAllMocks();
    return code;
  };
  afterEach(() => vi.restoreAllMocks());

  it('prints the candidates and the directive, exit 0, nothing on stderr', async () => {
    expect(await run('an')).toBe(0);
    expect(stdout).toBe(`analyze\t${COMMANDS.analyze.summary}\n:4\n`);
    expect(stderr).toBe('');
    expect(await run('analyze', '-o', '')).toBe(0);
    expect(stdout).toBe('text\njson\nyaml\njunit\nhtml\n:4\n');
    expect(stderr).toBe('');
  });

  it('loads no command for the first word, and only the command named after it', async () => {
    await run('');
    expect(loads).toEqual([]);
    await run('status', '--details', '');
    expect(loads).toEqual(['status']);
    expect(stdout).toBe('none\nnodes\nhealth\noperators\nall\n:4\n');
    await run('help', 'release', '');
    expect(loads).toEqual(['release']);
    expect(stdout).toMatch(/^diff\t.*\ninfo\t.*\n:4\n$/);
  });

  it('is in no help: not a command commander knows', async () => {
    const program = await buildProgram({ code: 0 }, 'all');
    expect(program.commands.map((c) => c.name())).not.toContain('__complete');
    expect(specs.find((s) => s.path === '')?.subcommands.map((c) => c.name)).not.toContain('__complete');
  });

  it('bin/kubectl_complete-atlevel runs it with the words kubectl passes', () => {
    const r = spawnSync(
      process.execPath,
      [join(projectRoot, 'bin/kubectl_complete-atlevel'), 'release', ''],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^diff\t.*\ninfo\t.*\n:4\n$/);
    // The bare `--version`/`-V` shortcut of bin/atlevel.js is not taken for the word being completed.
    const v = spawnSync(process.execPath, [join(projectRoot, 'bin/kubectl_complete-atlevel'), '--vers'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(v.stdout).toBe('--version\toutput the version number\n:4\n');
  });
});

describe('any words at all', () => {
  const known = () => {
    const names = new Set<string>();
    for (const s of specs) {
      for (const c of s.subcommands) names.add(c.name);
      for (const w of s.operands.words) names.add(w);
      for (const o of s.options)
        for (const f of o.flags) {
          names.add(f);
          for (const w of o.value?.words ?? []) {
            names.add(w);
            names.add(`${f}=${w}`);
            names.add(`${f}${w}`);
          }
        }
    }
    return names;
  };
  const word = fc.oneof(
    fc.constantFrom(
      '',
      '-',
      '--',
      '-o',
      '--output',
      '--output=',
      '--out=x',
      '-oj',
      '=',
      '--=',
      'help',
      'release',
      'diff',
      'analyze',
      'cache',
      'prune',
      'completion',
      '__complete',
      '__proto__',
      'constructor',
      'toString',
      '--__proto__=x',
    ),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: fc.constantFrom('-', '=', '\n', '\t', ' ', ':', 'a', 'o'), maxLength: 8 }),
  );

  it('never throw, end with a directive, and offer only what the definitions name', () => {
    const names = known();
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        const out = cobraLines(completeWords(specs, words));
        const lines = out.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines.pop()).toMatch(/^:(0|4)$/);
        for (const line of lines) expect(names.has(line.split('\t')[0] ?? '')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
