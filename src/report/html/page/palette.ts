import type { MarkKind, Tone } from '../report-data-types.js';

/** Bar fill and the text drawn on it, by meaning. Saturated for trouble and work, pale for calm. */
export const TONE_FILL: Readonly<Record<Tone, string>> = {
  info: '#cdd5de',
  ok: '#a8d5aa',
  warn: '#f2d36b',
  progress: '#f08c00',
  bad: '#d32f2f',
};

export const TONE_TEXT: Readonly<Record<Tone, string>> = {
  info: '#27313c',
  ok: '#173f1a',
  warn: '#3d3000',
  progress: '#ffffff',
  bad: '#ffffff',
};

/** Ticks of plain instants, darker than the bars of the same tone so they read on top of them. */
export const TONE_TICK: Readonly<Record<Tone, string>> = {
  info: '#6f7c89',
  ok: '#2e7d32',
  warn: '#a07800',
  progress: '#b85f00',
  bad: '#a31515',
};

export const MARK_FILL: Readonly<Record<Exclude<MarkKind, 'instant'>, string>> = {
  version: '#6a3fb5',
  created: '#00897b',
};

export const TONE_NAMES: Readonly<Record<Tone, string>> = {
  bad: 'Available=False, Degraded=True, Failing=True, not Ready, errors',
  progress: 'Progressing=True, Updating=True, node update phases, update running',
  warn: 'Updated=False, Upgradeable=False, Unknown, warnings',
  ok: 'condition in its good state (Available=True, Updated=True, …)',
  info: 'other',
};

export const CHART = {
  background: '#ffffff',
  stripe: '#f7f9fb',
  groupBg: '#e9edf1',
  groupText: '#27313c',
  label: '#27313c',
  labelMuted: '#5b6670',
  grid: '#e3e7ec',
  axisBg: '#f6f8fa',
  axisText: '#3b4651',
  border: '#d8dde3',
  highlight: '#fff1b8',
  flash: '#dbe8ff',
  hover: '#1d2329',
  moment: '#1f5fbf',
  momentText: '#ffffff',
} as const;
