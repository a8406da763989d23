/**
 * How reports and prose name a release. A module of its own, apart from the parser (parse.ts) and
 * js-yaml behind it, so that a reporter that names releases (report/diff-json.ts) does not load them
 * (docs/performance.md, "diff's start-up").
 */

/**
 * What the versioned JSON reports (docs/diff-json.md) put in `version` for a payload that carries none.
 * Prose never uses it: a release without a version is named by its file (releaseName).
 */
export const UNKNOWN_VERSION = 'unknown';

/**
 * A release as prose names it: `release 4.10.0-…`, or, when the file carries no version, by its file,
 * so that no sentence reads as if a release were called "unknown".
 */
export function releaseName(p: { readonly version?: string | undefined; readonly file: string }): string {
  return p.version !== undefined
    ? `release ${p.version}`
    : `the release in ${p.file} (it carries no version)`;
}
