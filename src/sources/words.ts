/**
 * What the command line says of inputs before any is read: the argument that means standard input,
 * what an input may be, the storage endpoint's environment variable. A module of its own, importing
 * nothing, so that a command's flags and checks (src/cli) need not load every reader, layout and
 * decoder of sources/ with them (docs/performance.md, "diff's start-up").
 */

/** The argument that means standard input, wherever a file is named (inputs, --release-from, ...). */
export const STDIN = '-';

export const NO_INPUTS_HINT =
  'expected gather-extra JSON Lists, build-log.txt, e2e-*.json intervals, a must-gather, oc get YAML/JSON, or a .tar(.gz) of these';

/** The environment variable naming the Cloud Storage endpoint of URL inputs (url/options.ts). */
export const ENDPOINT_ENV = 'ATLEVEL_STORAGE_ENDPOINT';
