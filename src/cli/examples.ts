import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file under the packaged examples/ folder as a help example should show it: relative to the
 * current directory when it is inside it (the project root), absolute otherwise, so that the example
 * runs as printed from any directory. Two folders up from both src/cli and dist/bundle.
 */
export function examplePath(rel: string): string {
  const abs = fileURLToPath(new URL(`../../examples/${rel}`, import.meta.url));
  const here = relative(process.cwd(), abs);
  return here === '' || here.startsWith('..') || isAbsolute(here) ? abs : here;
}
