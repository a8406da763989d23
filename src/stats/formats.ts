/** `atlevel stats`'s output formats, keyed by the `-o` name (the same record shape as report/formats.ts). */
import { documentFormats, type Reporters, type TextSettings } from '../report/index.js';
import type { StatsResult } from './query.js';

export const STATS_FORMATS = {
  text: async () => (await import('./text.js')).statsText,
  ...documentFormats(async () => (await import('./json.js')).statsDocument),
  csv: async () => (await import('./csv.js')).statsCsv,
  html: async () => (await import('./html.js')).statsHtml,
} satisfies Reporters<StatsResult, TextSettings>;
