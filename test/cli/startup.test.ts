import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipNote } from '../helpers/skip.js';

// `atlevel --help` and every start pay for what dist/bundle/main.js imports statically (issue: start-up
// within 1.5x of `node -e 0`, measured by `npm run bench -- start`). The model pulls in zod (tens of
// ms to compile); it must come only with a command, or with an error to report.
const bundle = join(import.meta.dirname, '../../dist/bundle');

/** The chunks a module imports statically, transitively (dynamic `import()` is not followed). */
function staticClosure(file: string): Set<string> {
  const seen = new Set<string>([file]);
  const todo = [file];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    const text = readFileSync(join(bundle, f), 'utf8');
    for (const m of text.matchAll(/^(?:import|\} from) ?[^'"\n(]*"\.\/([\w.-]+\.js)";?$/gm)) {
      const dep = m[1] as string;
      if (!seen.has(dep)) {
        seen.add(dep);
        todo.push(dep);
      }
    }
  }
  return seen;
}

const NOT_BUILT = skipNote(
  existsSync(join(bundle, 'main.js')) ? undefined : 'no dist/bundle (npm run build)',
);

describe.skipIf(!existsSync(join(bundle, 'main.js')))(
  `the start-up path (dist/bundle, built by npm run build)${NOT_BUILT}`,
  () => {
    it('main.js loads commander and the command table, not the model or zod', () => {
      const closure = staticClosure('main.js');
      expect(closure.size).toBeGreaterThan(1);
      for (const chunk of closure) {
        const text = readFileSync(join(bundle, chunk), 'utf8');
        expect(text, chunk).not.toMatch(/^\/\/ node_modules\/zod\//m);
        expect(text, chunk).not.toMatch(/^\/\/ dist\/model\//m);
      }
    });

    it('the commands still reach the model through their own lazy imports', () => {
      const main = readFileSync(join(bundle, 'main.js'), 'utf8');
      const analyze = /import\("\.\/(analyze-[\w]+\.js)"\)/.exec(main)?.[1];
      expect(analyze).toBeDefined();
      const withModel = [...staticClosure(analyze as string)].some((c) =>
        /^\/\/ dist\/model\/errors\.js$/m.test(readFileSync(join(bundle, c), 'utf8')),
      );
      expect(withModel).toBe(true);
    });
  },
);

describe.skipIf(!existsSync(join(bundle, 'main.js')))(
  `what a command that reads inputs loads only when an input needs it${NOT_BUILT}`,
  () => {
    // Each of these was in the static graph of analyze (and so parsed by every run on a folder):
    // the archive decoders, the CI-URL client, the fetch progress bar and the HTML reporter.
    const LAZY = [
      /^\/\/ node_modules\/tar\//m,
      /^\/\/ node_modules\/fzstd\//m,
      /^\/\/ node_modules\/xz-decompress\//m,
      /^\/\/ node_modules\/cli-progress\//m,
      /^\/\/ dist\/sources\/url\/(?!location\.js|options\.js)/m,
      /^\/\/ dist\/report\/html\/report-data\.js$/m,
    ];

    it('the analyze chunk does not import them statically', () => {
      const main = readFileSync(join(bundle, 'main.js'), 'utf8');
      const analyze = /import\("\.\/(analyze-[\w]+\.js)"\)/.exec(main)?.[1];
      expect(analyze).toBeDefined();
      for (const chunk of staticClosure(analyze as string)) {
        const text = readFileSync(join(bundle, chunk), 'utf8');
        for (const re of LAZY) expect(text, `${chunk} ${re}`).not.toMatch(re);
      }
    });

    it('a plain-folder analyze loads neither node:http, node:https nor node:stream/web', () => {
      const script = `
        const { main } = await import(${JSON.stringify(join(bundle, 'main.js'))});
        const code = await main(['analyze', ${JSON.stringify(join(import.meta.dirname, '../../examples/bug-2019850'))}, '-o', 'json', '--exit-zero']);
        process.stderr.write(JSON.stringify({ code, loaded: process.moduleLoadList }));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      // The script's own line comes last, after analyze's notes (on stderr too).
      const { code, loaded } = JSON.parse(r.stderr.trimEnd().split('\n').at(-1) ?? '') as {
        code: number;
        loaded: string[];
      };
      expect(code).toBe(0);
      expect(r.stdout).toMatch(/^\{/);
      for (const m of ['http', 'https', 'stream/web']) expect(loaded).not.toContain(`NativeModule ${m}`);
    });

    // `diff --pool P --from machineconfigs.json` reads one file with sources/quick-configs.ts; the rest
    // of sources/, js-yaml, the timeline and the release parser were most of its start-up
    // (docs/performance.md, "diff's start-up"), and are loaded only for the inputs that need them.
    it("diff's chunk and its reporters do not import statically the readers, js-yaml, the timeline or the release parser", () => {
      const main = readFileSync(join(bundle, 'main.js'), 'utf8');
      const diff = /import\("\.\/(diff-[A-Z0-9]+\.js)"\)/.exec(main)?.[1];
      expect(diff).toBeDefined();
      const roots = [diff as string];
      for (const chunk of staticClosure(diff as string)) {
        const text = readFileSync(join(bundle, chunk), 'utf8');
        for (const m of text.matchAll(/import\("\.\/(diff-(?:json|text)-[A-Z0-9]+\.js)"\)/g))
          roots.push(m[1] as string);
      }
      expect(roots.length).toBe(3);
      const HEAVY = [
        /^\/\/ node_modules\/js-yaml\//m,
        /^\/\/ dist\/timeline\//m,
        /^\/\/ dist\/app\/read\.js$/m,
        /^\/\/ dist\/sources\/(load|readers|documents|buildlog|plan)\.js$/m,
        /^\/\/ dist\/release\/parse\.js$/m,
      ];
      for (const root of roots) {
        for (const chunk of staticClosure(root)) {
          const text = readFileSync(join(bundle, chunk), 'utf8');
          for (const re of HEAVY) expect(text, `${root}: ${chunk} ${re}`).not.toMatch(re);
        }
      }
    });

    it('diff of a machineconfigs.json loads neither node:crypto nor node:zlib (neither compressed contents nor digests here)', () => {
      const file = join(
        import.meta.dirname,
        '../../examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json',
      );
      const script = `
        const { main } = await import(${JSON.stringify(join(bundle, 'main.js'))});
        const code = await main(['diff', '--pool', 'master', '--from', ${JSON.stringify(file)}, '-o', 'json']);
        process.stderr.write(JSON.stringify({ code, loaded: process.moduleLoadList }));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      const { code, loaded } = JSON.parse(r.stderr.trimEnd().split('\n').at(-1) ?? '') as {
        code: number;
        loaded: string[];
      };
      expect(code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'MachineConfigDiff', identical: false });
      for (const m of ['crypto', 'zlib']) expect(loaded).not.toContain(`NativeModule ${m}`);
    });
  },
);

describe.skipIf(!existsSync(join(bundle, 'main.js')))(
  `commander's messages, printed after the model loads${NOT_BUILT}`,
  () => {
    const bin = join(import.meta.dirname, '../../bin/atlevel.js');
    it('an unknown option quoting control bytes: one prefixed, sanitised line ending in the hint, exit 2', () => {
      const r = spawnSync(process.execPath, [bin, 'analyze', '--b\u001b]0;owned\u0007ad', 'x'], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^atlevel: unknown option '--b.*ad' \(run atlevel analyze --help for usage\)$/,
      );
      expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    });

    it('help asked for goes to stdout, exit 0, nothing on stderr', () => {
      const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Usage: atlevel /);
      expect(r.stderr).toBe('');
    });
  },
);
