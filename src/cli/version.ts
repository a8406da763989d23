import { readFileSync } from 'node:fs';

/**
 * atlevel's version, from its package.json (two folders up from both src/cli and dist/cli), so that
 * `npm version` is the only place it changes.
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
