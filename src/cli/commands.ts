/**
 * The table of atlevel's commands. Each command's module is imported only when that command runs (or
 * its help is asked for), so `atlevel --version` and `atlevel --help` load none of the analyses.
 * Adding a command is one module that exports a `define` function, plus one line here.
 */
import type { Command } from '@commander-js/extra-typings';
import type { ExitBox } from './exit.js';

/**
 * Adds a command's arguments, options and action to `cmd`, which main has named and described.
 * `everything` gives the program with every command defined (for completion and docs).
 */
type DefineCommand = (cmd: Command, exit: ExitBox, everything: () => Promise<Command>) => void;

export interface CommandEntry {
  /** One line for `atlevel --help`. */
  readonly summary: string;
  /** What follows the name in `atlevel --help`, as the command's own usage line says it (test/cli/help-examples.test.ts). */
  readonly usage: string;
  readonly load: () => Promise<DefineCommand>;
}

export const COMMANDS = {
  analyze: {
    summary: 'read a CI run or a snapshot, check the update invariants, explain each violation',
    // Optional: --kubeconfig or --live reads a live cluster instead (live-flags.ts).
    usage: '[options] [paths...]',
    load: async () => (await import('./analyze.js')).defineAnalyze,
  },
  report: {
    summary: 'write the HTML timeline report of a CI run or snapshot (short for analyze -o html)',
    usage: '[options] <paths...>',
    load: async () => (await import('./analyze.js')).defineReport,
  },
  status: {
    summary: 'assess the state of an update at one moment, as oc adm upgrade status does, offline',
    usage: '[options] [paths...]',
    load: async () => (await import('./status.js')).defineStatus,
  },
  diff: {
    summary:
      'semantic diff of two MachineConfigs: files, units, kernel arguments, OS image, ... and the release components behind changed images',
    usage: '[options] [a] [b]',
    load: async () => (await import('./diff.js')).defineDiff,
  },
  release: {
    summary: 'release payloads: component diff and lookups',
    usage: '<command>',
    load: async () => (await import('./release.js')).defineRelease,
  },
  simulate: {
    summary:
      'run the model of the update control loop: reproduce the MCO race of bug 2019850 and show the fix',
    usage: '[options]',
    load: async () => (await import('./simulate.js')).defineSimulate,
  },
  serve: {
    summary: 'serve the inputs as a read-only Kubernetes API, at any moment or with the update replayed',
    usage: '[options] <paths...>',
    load: async () => (await import('./serve.js')).defineServe,
  },
  watch: {
    summary: 'follow an update on a live cluster: transitions and findings as they happen, then the verdict',
    usage: '[options]',
    load: async () => (await import('./watch.js')).defineWatch,
  },
  cache: {
    summary: 'the cache of CI URL downloads: fetch into it, list or prune it',
    usage: '<command>',
    load: async () => (await import('./cache.js')).defineCache,
  },
  ingest: {
    summary: 'analyse many runs (folders, tarballs, listings, CI URLs) into the run store, in parallel',
    usage: '[options] <inputs...>',
    load: async () => (await import('./ingest.js')).defineIngest,
  },
  inputs: {
    summary:
      'what each input is: its layouts, the files read and by which kind, served as-is or ignored, its runs',
    // Optional: --kubeconfig or --live plans a live cluster instead (live-flags.ts).
    usage: '[options] [inputs...]',
    load: async () => (await import('./inputs.js')).defineInputs,
  },
  stats: {
    summary: 'which rules break across the stored runs, how often, since when and why',
    usage: '[options]',
    load: async () => (await import('./stats.js')).defineStats,
  },
  completion: {
    summary: 'print a shell completion script (bash, zsh or fish)',
    usage: '<shell>',
    load: async () => (await import('./completion.js')).defineCompletion,
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

export function commandEntry(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
}
