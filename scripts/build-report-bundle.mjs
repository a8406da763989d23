// Bundles the HTML report's page script (src/report/html/page/main.ts) into one minified IIFE at
// dist/report/html/page.bundle.js, beside the compiled renderer, which inlines it into each report.
// Imported by scripts/build.mjs; importing it builds. Tests import it to get a fresh bundle.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const entry = join(root, 'src/report/html/page/main.ts');
export const outfile = join(root, 'dist/report/html/page.bundle.js');

export async function buildReportBundle() {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    charset: 'ascii',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.text ?? '';
  // The bundle goes inside <script>…</script>; it must not be able to close that element.
  if (/<\/script|<!--/i.test(code)) throw new Error('the report bundle contains "</script" or "<!--"');
  mkdirSync(dirname(outfile), { recursive: true });
  // Write then rename, so a report rendered meanwhile never reads half a file.
  const tmp = `${outfile}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, outfile);
  return { outfile, bytes: Buffer.byteLength(code) };
}

const built = await buildReportBundle();
if (process.env.ATLEVEL_QUIET_BUILD !== '1') {
  process.stdout.write(`report bundle: ${built.outfile} (${(built.bytes / 1024).toFixed(1)} kB)\n`);
}
