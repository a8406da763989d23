/**
 * report/ turns a command's result into what the user reads: text for a terminal, JSON with a
 * versioned schema, JUnit for CI and the self-contained HTML page. Reporters format and never
 * compute; each command's record of reporters (formats.ts) gives its `-o` choices. The text toolkit
 * (colours, plurals, wrapping, tables) is shared by every text reporter, here and in other folders.
 */

export {
  ANALYZE_FORMATS,
  DIFF_FORMATS,
  HOSTED_STATUS_FORMATS,
  INPUTS_FORMATS,
  RELEASE_DIFF_FORMATS,
  RELEASE_INFO_FORMATS,
  SIMULATE_FORMATS,
  STATUS_FORMATS,
} from './formats.js';
// From the files that define them, not html/index.ts: that would put the whole HTML reporter (loaded
// only for -o html, formats.ts) in the start-up of every command that imports report/.
export { PAGE_CSS } from './html/page-style.js';
export { cspHash, escapeHtml } from './html/render.js';
export type { Reporters, TextSettings } from './reporter.js';
export { documentFormats, formatsOf, render, yamlPrinter } from './reporter.js';
export type { DiffReport, ReleaseInfoReport, StatusDetails } from './results.js';
export { fittedTable, table, wrap } from './text.js';
