import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { skipNote } from '../helpers/skip.js';

// `atlevel --help` and every start pay for what dist/cli/main.js imports statically (issue: start-up
// within 1.5x of `node -e 0`, measured by `npm run bench -- start`). The model pulls in zod (tens of
// ms to compile); it must come only with a command, or with an error to report. The CLI is one script,
// dist/bundle/atlevel.cjs (scripts/build.mjs), in which esbuild runs a module at start-up if the entry
// reaches it by static imports, and a module reached only through `import()` when that import runs:
// the build's metafile (dist/bundle-meta.json) says which is which.
const dist = join(import.meta.dirname, '../../dist');
const bundle = join(dist, 'bundle');
const script = join(bundle, 'atlevel.cjs');
const metaFile = join(dist, 'bundle-meta.json');
const loader = join(import.meta.dirname, '../../bin/load-bundle.js');
const BUILT = existsSync(script) && existsSync(metaFile);
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const clean of cleanups) clean();
});

interface Meta {
  readonly inputs: Record<string, { readonly imports: readonly { path: string; kind: string }[] }>;
}
const meta = (): Meta => JSON.parse(readFileSync(metaFile, 'utf8')) as Meta;

/** The modules a module reaches by static imports, itself included: what runs when it does. */
function staticClosure(module: string): Set<string> {
  const { inputs } = meta();
  const seen = new Set<string>([module]);
  const todo = [module];
  for (let m = todo.pop(); m !== undefined; m = todo.pop()) {
    for (const dep of inputs[m]?.imports ?? []) {
      if (dep.kind === 'dynamic-import' || seen.has(dep.path)) continue;
      seen.add(dep.path);
      todo.push(dep.path);
    }
  }
  return seen;
}

/** The modules that the static closure of `module` imports with `import()`. */
function lazyImports(module: string): Set<string> {
  const { inputs } = meta();
  const out = new Set<string>();
  for (const m of staticClosure(module))
    for (const dep of inputs[m]?.imports ?? []) if (dep.kind === 'dynamic-import') out.add(dep.path);
  return out;
}

/** Runs `body` (ES module code that can call `main`) with the bundle's main, in a process of its own. */
function withMain(body: string): { code: number; loaded: string[]; stdout: string } {
  const program = `
    const { loadBundle } = await import(${JSON.stringify(pathToFileURL(loader).href)});
    const { main } = loadBundle().exports;
    const code = await (async () => { ${body} })();
    process.stderr.write(JSON.stringify({ code, loaded: process.moduleLoadList }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  // The program's own line comes last, after the command's notes (on stderr too).
  const { code, loaded } = JSON.parse(r.stderr.trimEnd().split('\n').at(-1) ?? '') as {
    code: number;
    loaded: string[];
  };
  return { code, loaded, stdout: r.stdout };
}

const NOT_BUILT = skipNote(BUILT ? undefined : 'no dist/bundle (npm run build)');

describe.skipIf(!BUILT)(`the start-up path (dist/bundle, built by npm run build)${NOT_BUILT}`, () => {
  it('main.js runs commander and the command table, not the model or zod', () => {
    const closure = staticClosure('dist/cli/main.js');
    expect(closure).toContain('dist/cli/commands.js');
    expect(closure).toContain('node_modules/commander/lib/command.js');
    for (const m of closure) {
      expect(m).not.toMatch(/^node_modules\/zod\//);
      expect(m).not.toMatch(/^dist\/model\//);
    }
  });

  it('the commands still reach the model through their own lazy imports', () => {
    expect(lazyImports('dist/cli/commands.js')).toContain('dist/cli/analyze.js');
    expect(staticClosure('dist/cli/analyze.js')).toContain('dist/model/errors.js');
  });

  it('the script is ASCII, so that reading it as latin1 (bin/load-bundle.js) reads it exactly', () => {
    expect(readFileSync(script).some((byte) => byte > 0x7f)).toBe(false);
  });
});

/**
 * What the launcher's load of the script (bin/load-bundle.js loadUnderCacheFlags) gives, in a process
 * of its own: whether V8 refused the cache (null: none given), whether the V8 flags after the load
 * are those before it (a probe script's own cache, made before, is taken after only under the same
 * flags), and what a worker thread started then says of the cache when it imports each worker stub.
 */
function launcherLoad(shortRun: boolean, { nodeArgs = [] as string[], env = {} as NodeJS.ProcessEnv } = {}) {
  const stubs = ['hash-worker.js', 'ingest-worker.js'].map((f) => pathToFileURL(join(bundle, f)).href);
  const program = `
    const { Script } = await import('node:vm');
    const { Worker } = await import('node:worker_threads');
    const probe = 'function probe() { return 1 }';
    const before = new Script(probe, { filename: 'probe-before' }).createCachedData();
    const { loadUnderCacheFlags } = await import(${JSON.stringify(pathToFileURL(loader).href)});
    const { exports, cacheRejected } = loadUnderCacheFlags(undefined, { shortRun: ${shortRun} });
    const flagsKept = !new Script(probe, { filename: 'probe-after', cachedData: before }).cachedDataRejected;
    const workers = {};
    for (const stub of ${JSON.stringify(stubs)}) {
      const w = new Worker(
        'const m = await import(' + JSON.stringify(stub) + '); (await import("node:worker_threads")).parentPort.postMessage(m.cacheRejected ?? null);',
        { eval: true },
      );
      workers[stub.split('/').at(-1)] = await new Promise((resolve, reject) => {
        w.once('message', (m) => w.terminate().then(() => resolve(m)));
        w.once('error', reject);
      });
    }
    process.stdout.write(JSON.stringify({ cacheRejected: cacheRejected ?? null, flagsKept, workers, main: typeof exports.main }));`;
  const r = spawnSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', program], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as {
    cacheRejected: boolean | null;
    flagsKept: boolean;
    workers: Record<string, boolean | null>;
    main: string;
  };
}

describe.skipIf(!BUILT)(`the build's code cache, taken under the CLI's flags${NOT_BUILT}`, () => {
  // V8 takes a cache only under the flags it was made with, and the flags are the whole process's:
  // the cache is made under the halved inlining budget that the one-shot commands run with.
  it('a one-shot command takes it, and so do the worker threads it starts (ingest pool, hash worker)', () => {
    expect(launcherLoad(true)).toEqual({
      cacheRejected: false,
      // The budget stays halved for the command.
      flagsKept: false,
      workers: { 'hash-worker.js': false, 'ingest-worker.js': false },
      main: 'function',
    });
  });

  it("serve, watch and the library take it, and run under V8's default budget after", () => {
    const r = launcherLoad(false);
    expect(r).toMatchObject({ cacheRejected: false, flagsKept: true, main: 'function' });
    // Their workers start under the default budget, not the cache's: they run the bundle's JavaScript
    // (dist/bundle/*-worker.js load atlevel.cjs) compiled from its text, without the code cache, which
    // does not slow a worker's start (it needs few of the functions the cache holds; measured, no slower).
    expect(r.workers).toEqual({ 'hash-worker.js': true, 'ingest-worker.js': true });
  });

  it('a budget of the caller’s own (node’s command line) is kept by serve and the library: no cache then', () => {
    const r = launcherLoad(false, { nodeArgs: ['--max-inlined-bytecode-size-cumulative=500'] });
    expect(r).toMatchObject({ cacheRejected: true, flagsKept: true, main: 'function' });
  });

  it('a process under other V8 flags (NODE_OPTIONS) compiles from the source, its workers too, and runs', () => {
    const r = launcherLoad(true, { env: { NODE_OPTIONS: '--max-old-space-size=4096' } });
    expect(r).toEqual({
      cacheRejected: true,
      flagsKept: false,
      workers: { 'hash-worker.js': true, 'ingest-worker.js': true },
      main: 'function',
    });
  });

  it('the library entry (dist/bundle/lib.js) leaves the importing program under its own flags', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { Script } = await import('node:vm');
         const probe = 'function probe() { return 1 }';
         const before = new Script(probe, { filename: 'probe-before' }).createCachedData();
         const library = await import(${JSON.stringify(pathToFileURL(join(bundle, 'lib.js')).href)});
         const kept = !new Script(probe, { filename: 'probe-after', cachedData: before }).cachedDataRejected;
         process.stdout.write(JSON.stringify({ kept, analyze: typeof library.analyze }));`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(r.stdout)).toEqual({ kept: true, analyze: 'function' });
  });
});

describe.skipIf(!BUILT)(`stack traces under --enable-source-maps${NOT_BUILT}`, () => {
  it("name atlevel's sources, not the script (a vm.Script's are not mapped: the launcher requires it)", () => {
    const r = spawnSync(
      process.execPath,
      [
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        `const { loadBundle } = await import(${JSON.stringify(pathToFileURL(loader).href)});
         await loadBundle().exports.main(null);`,
      ],
      { encoding: 'utf8', env: { ...process.env, ATLEVEL_DEBUG: '1' } },
    );
    expect(r.stderr).toMatch(/internal error/);
    expect(r.stderr).toMatch(/\(.*src\/cli\/main\.ts:\d+:\d+\)/);
  });
});

describe.skipIf(!BUILT)(`a code cache that is not the script's${NOT_BUILT}`, () => {
  // A copy of the script in a folder of its own, with a cache file made for the test.
  const copy = (cache: (real: Buffer) => Buffer | undefined) => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-cache-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // Two folders below a package.json, as in the package (the script reads its version at start).
    writeFileSync(join(dir, 'package.json'), '{"version":"0.0.0"}');
    mkdirSync(join(dir, 'dist/bundle'), { recursive: true });
    const file = join(dir, 'dist/bundle/atlevel.cjs');
    copyFileSync(script, file);
    const made = cache(readFileSync(`${script}.cache`));
    if (made) writeFileSync(`${file}.cache`, made);
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { loadUnderCacheFlags } = await import(${JSON.stringify(pathToFileURL(loader).href)});
         const { exports, cacheRejected } = loadUnderCacheFlags(${JSON.stringify(file)}, { shortRun: true });
         process.stdout.write(JSON.stringify({ cacheRejected: cacheRejected ?? null, main: typeof exports.main }));`,
      ],
      { encoding: 'utf8' },
    );
    return JSON.parse(r.stdout) as { cacheRejected: boolean | null; main: string };
  };

  it('is not given to V8 when its build id is another build’s; the script compiles from its source', () => {
    const other = (real: Buffer) => Buffer.concat([Buffer.from('0'.repeat(64), 'latin1'), real.subarray(64)]);
    expect(copy(other)).toEqual({ cacheRejected: null, main: 'function' });
  });

  it('is refused by V8 when it is cut short, and the script compiles from its source', () => {
    expect(copy((real) => real.subarray(0, real.length >> 1))).toEqual({
      cacheRejected: true,
      main: 'function',
    });
  });

  it('is no error when it is missing', () => {
    expect(copy(() => undefined)).toEqual({ cacheRejected: null, main: 'function' });
  });
});

describe.skipIf(!BUILT)(
  `what a command that reads inputs loads only when an input needs it${NOT_BUILT}`,
  () => {
    // Each of these was in the static graph of analyze (and so run by every run on a folder): the
    // archive decoders, the CI-URL client, the fetch progress bar and the HTML reporter.
    const LAZY = [
      /^node_modules\/tar\//,
      /^node_modules\/fzstd\//,
      /^node_modules\/xz-decompress\//,
      /^node_modules\/cli-progress\//,
      /^dist\/sources\/url\/(?!location\.js|options\.js)/,
      /^dist\/report\/html\/report-data\.js$/,
    ];

    it('the analyze command does not import them statically', () => {
      for (const m of staticClosure('dist/cli/analyze.js'))
        for (const re of LAZY) expect(m, `${m} ${re}`).not.toMatch(re);
    });

    it('a plain-folder analyze loads neither node:http, node:https nor node:stream/web', () => {
      const example = join(import.meta.dirname, '../../examples/bug-2019850');
      const r = withMain(
        `return main(['analyze', ${JSON.stringify(example)}, '-o', 'json', '--exit-zero']);`,
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\{/);
      for (const m of ['http', 'https', 'stream/web']) expect(r.loaded).not.toContain(`NativeModule ${m}`);
    });

    // `diff --pool P --from machineconfigs.json` reads one file with sources/quick-configs.ts; the rest
    // of sources/, js-yaml, the timeline and the release parser were most of its start-up
    // (docs/performance.md, "diff's start-up"), and are run only for the inputs that need them.
    it('diff and its reporters do not import statically the readers, js-yaml, the timeline or the release parser', () => {
      const reporters = [...lazyImports('dist/cli/diff.js')].filter((m) =>
        /^dist\/report\/diff-(json|text)\.js$/.test(m),
      );
      expect(reporters.sort()).toEqual(['dist/report/diff-json.js', 'dist/report/diff-text.js']);
      const HEAVY = [
        /^node_modules\/js-yaml\//,
        /^dist\/timeline\//,
        /^dist\/app\/read\.js$/,
        /^dist\/sources\/(load|readers|documents|buildlog|plan)\.js$/,
        /^dist\/release\/parse\.js$/,
      ];
      for (const root of ['dist/cli/diff.js', ...reporters])
        for (const m of staticClosure(root))
          for (const re of HEAVY) expect(m, `${root}: ${m} ${re}`).not.toMatch(re);
    });

    it('diff of a machineconfigs.json loads neither node:crypto nor node:zlib (neither compressed contents nor digests here)', () => {
      const file = join(
        import.meta.dirname,
        '../../examples/bug-2019850/artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json',
      );
      const r = withMain(
        `return main(['diff', '--pool', 'master', '--from', ${JSON.stringify(file)}, '-o', 'json']);`,
      );
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'MachineConfigDiff', identical: false });
      for (const m of ['crypto', 'zlib']) expect(r.loaded).not.toContain(`NativeModule ${m}`);
    });
  },
);

describe.skipIf(!BUILT)(`commander's messages, printed after the model loads${NOT_BUILT}`, () => {
  const bin = join(import.meta.dirname, '../../bin/atlevel.js');
  it('an unknown option quoting control bytes: one prefixed, sanitised line ending in the hint, exit 2', () => {
    const r = spawnSync(process.execPath, [bin, 'analyze', '--b\u001b]0;owned\u0007ad', 'x'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^atlevel: unknown option '--b.*ad' \(run atlevel analyze --help for usage\)$/);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('help asked for goes to stdout, exit 0, nothing on stderr', () => {
    const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: atlevel /);
    expect(r.stderr).toBe('');
  });
});
