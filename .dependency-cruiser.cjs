// The layering of src/, checked by `npm run lint` (docs/architecture.md draws the same map).
//
// A folder may import only from folders on its own layer or below, and only through the other
// folder's index.ts. Files that touch the disk, decompress or talk to the network are named here
// one by one, so an analysis that starts reading files fails the lint instead of a review.

/**
 * Lowest first. A folder may import from its own layer and the layers before it. The data flows the
 * same way: sources read inputs into a history's parts, timeline builds the ClusterHistory,
 * analyses read it and return findings, reporters print them. So sources never import timeline,
 * an analysis never imports a reporter, and so on: each such arrow is an upward import.
 */
const LAYERS = [
  ['model'],
  // Formats with no state: release payloads, and the CI artifact layout as text (artifacts/); and
  // the one artifact writer (writer/: cluster content → a run folder in the CI layout, for sim,
  // watch, the benches and the examples), which takes plain content and so needs nothing above them.
  ['release', 'artifacts', 'writer'],
  // The live-cluster client: get, list and watch over HTTP, its answers read as the sources hand it
  // (AnswerReading). The sources open it; it never imports them.
  ['live'],
  // Openers and decoders: a path, archive, URL or live cluster → a history's parts.
  ['sources'],
  // The ClusterHistory: intervals, rewinds, "what was the state of X at t".
  ['timeline'],
  // Analyses over a history.
  ['status', 'machineconfig', 'signatures'],
  ['invariants'],
  // explain turns violations into findings; sim writes runs in the layout sources read.
  ['explain', 'sim'],
  ['analyze'],
  // Consumers of a whole analysis: reporters, the read-only API server, the run store and the
  // live-cluster watcher.
  ['report', 'serve', 'store', 'ingest', 'stats', 'watch'],
  // One use case per command: a typed request in, a result out (the package's library entry).
  ['app'],
  // Parses flags into requests and prints results.
  ['cli'],
];

/**
 * Arrows the layers allow but the design does not: named so the lint says which one was taken.
 * [name, from folders, to folders, why]
 */
const WRONG_WAY = [
  [
    'consumers-not-to-sim',
    ['watch', 'live', 'serve', 'store', 'ingest', 'stats'],
    ['sim'],
    'The simulator is one producer of runs, not a library: the watcher records through writer/ and artifacts/.',
  ],
  [
    'reporters-not-to-inputs',
    ['report'],
    ['sources', 'live'],
    'Reporters print what analyses computed; they never read inputs.',
  ],
];

/** Where node:fs, node:zlib and the network may be used, and why each place needs it. */
const IO_ALLOWED = [
  '^src/sources/', // open, read and decompress inputs: paths, archives, URLs, live clusters
  '^src/cli/', // write --out files, read scenario and flag files
  '^src/writer/', // the one writer of the CI artifact layout (run folders on disk)
  '^src/serve/', // the read-only Kubernetes API server (node:http)
  '^src/store/', // the run store's database files
  '^src/ingest/', // reads many runs into the store
  '^src/live/', // the live-cluster client
  '^src/watch/', // follows a live cluster
];

/**
 * Single files outside those folders that may use one of those modules, each with its reason.
 * Keep this list short: a new entry needs a reason an analysis could not do without.
 */
const IO_EXCEPTIONS = [
  // Ignition data: URLs may be gzip-compressed ("compression": "gzip", Ignition spec v3.1+); decoding
  // them is part of reading a MachineConfig, capped by the decoder's size limits.
  '^src/machineconfig/dataurl\\.ts$',
  // The HTML reporter reads its own packaged page script (dist/report/html/page.bundle.js), never input.
  '^src/report/html/bundle\\.ts$',
  // ingest's use case finds its worker module's file (compiled, bundled or source) before starting the pool.
  '^src/app/ingest\\.ts$',
  // simulate's verdict writes the run it made to a temporary folder and reads it back as analyze would.
  '^src/app/run-verdict\\.ts$',
  // The signature catalogue is data shipped with atlevel (signatures/*.json), read once, never input.
  '^src/signatures/catalogue\\.ts$',
];

/**
 * Modules of another folder that may be imported directly, besides its index.ts. Importing a folder
 * through its index loads all of it, with its dependencies: the sources barrel brings every reader,
 * layout and decoder and js-yaml, release's brings the payload parser and js-yaml. `atlevel diff`
 * reads one machineconfigs.json, and its start-up was most of its time (docs/performance.md, "diff's
 * start-up"). Each module here imports nothing heavy of its folder; keep the list short.
 */
const DIRECT_ENTRIES = [
  // diff's reader of one machineconfigs.json (app/diff.ts), which reads nothing else.
  '^src/sources/quick-configs\\.ts$',
  // What the CLI's flags and checks say of inputs (`-`, the endpoint variable), importing nothing.
  '^src/sources/words\\.ts$',
  // The digest -> component index the MachineConfig diff names images by, without the parser.
  '^src/release/components\\.ts$',
  // How reports name a release, without the parser.
  '^src/release/names\\.ts$',
];

const IO_MODULES = '^(node:)?(fs|fs/promises|zlib|http|https|http2|net|tls|dgram|dns|dns/promises)$';

const notTest = '\\.test\\.ts$';

function upwardRules() {
  const rules = [];
  LAYERS.forEach((layer, i) => {
    const above = LAYERS.slice(i + 1).flat();
    if (above.length === 0) return;
    const from = `^src/(${layer.join('|')})/`;
    const to = { path: `^src/(${above.join('|')})/` };
    const comment = `${layer.join(', ')} may not import from a higher layer (${above.join(', ')}).`;
    rules.push({
      name: `no-upward-from-${layer.join('-')}`,
      comment,
      severity: 'error',
      from: { path: from, pathNot: notTest },
      to,
    });
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles: each layer and each folder is understandable from below.',
      severity: 'error',
      from: { path: '^src/', pathNot: notTest },
      to: { circular: true },
    },
    ...upwardRules(),
    ...WRONG_WAY.map(([name, from, to, comment]) => ({
      name,
      comment,
      severity: 'error',
      from: { path: `^src/(${from.join('|')})/`, pathNot: notTest },
      to: { path: `^src/(${to.join('|')})/` },
    })),
    {
      name: 'unknown-folder',
      comment: 'Every top-level folder of src/ has a place in LAYERS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${LAYERS.flat().join('|')})/` },
      to: {},
    },
    {
      name: 'cross-folder-through-index',
      comment:
        "Another folder's files are reached only through its index.ts, the folder's contract (or a module of DIRECT_ENTRIES).",
      severity: 'error',
      from: { path: '^src/(?!cli/)([^/]+)/', pathNot: notTest },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', ...DIRECT_ENTRIES] },
    },
    {
      name: 'cli-through-index-but-use-cases',
      comment:
        "The CLI reaches other folders through their index.ts (or a module of DIRECT_ENTRIES), except app/: each command imports its own use case's module, so the bundle loads that command's code alone (app/index.ts re-exports every use case, the simulator's included).",
      severity: 'error',
      from: { path: '^src/cli/', pathNot: notTest },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/cli/', '^src/app/', '^src/[^/]+/index\\.ts$', ...DIRECT_ENTRIES],
      },
    },
    {
      name: 'io-only-at-the-edges',
      comment:
        'Disk, decompression and network belong to sources/, cli/ and the artifact writer; an analysis never reads a file.',
      severity: 'error',
      from: { path: '^src/', pathNot: [...IO_ALLOWED, ...IO_EXCEPTIONS, notTest] },
      to: { dependencyTypes: ['core'], path: IO_MODULES },
    },
    {
      name: 'test-beside-its-code',
      comment:
        "A test beside the code (src/<folder>/**/*.test.ts) tests that folder: it imports only its own folder and model. A test across folders, or one using test/ helpers, fixtures or benches, lives in test/<area>/ (CONTRIBUTING.md).",
      severity: 'error',
      from: { path: '^src/([^/]+)/.+\\.test\\.ts$' },
      to: { path: '^(src|test|bench|scripts)/', pathNot: ['^src/$1/', '^src/model/'] },
    },
    {
      name: 'not-to-test',
      comment: 'Shipped code does not import tests.',
      severity: 'error',
      from: { path: '^src/', pathNot: notTest },
      to: { path: '\\.test\\.ts$' },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'Shipped code imports only runtime dependencies (package.json "dependencies").',
      severity: 'error',
      from: { path: '^src/', pathNot: notTest },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/report/html/page\\.bundle' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
