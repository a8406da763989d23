import { packReportData } from './pack.js';
import { PAGE_CSS } from './page-style.js';
import type { ReportData } from './report-data-types.js';

/**
 * Data as JSON that is safe inside `<script type="application/json">`: no `<`, `>` or `&` can close
 * the element or open a comment, and U+2028/2029 are escaped for any consumer that evals JSON as JS.
 * JSON.parse reads the escapes back to the original characters.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The value of a CSP hash source for an inline element's exact text. */
export function cspHash(text: string): string {
  // node:crypto is loaded here, not at import: report/ exports this to every command that prints.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Code that is inlined must not be able to end its own element early. esbuild escapes `</script` in
 * string literals, and the build checks; this is the last guard before the text goes into the page.
 */
function assertInlineable(code: string, what: string): void {
  if (/<\/script|<!--/i.test(code))
    throw new Error(`${what} contains "</script" or "<!--" and cannot be inlined`);
}

/**
 * The whole page. Everything is inline; the Content-Security-Policy allows exactly the one script and
 * the one style below (by hash) and nothing else: no network, no frames, no other scripts, so even a
 * mistake in escaping could not load or run anything.
 */
export function renderPage(data: ReportData, script: string): string {
  assertInlineable(script, 'the page script');
  assertInlineable(PAGE_CSS, 'the page style');
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(script)}`,
    `style-src ${cspHash(PAGE_CSS)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = escapeHtml(data.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="atlevel">
<title>${title}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header class="page-header"><h1>${title}</h1></header>
<noscript><p class="noscript">This report draws its findings and timeline with JavaScript; allow scripts for this file to see them.</p></noscript>
<main id="app"></main>
<script type="application/json" id="atlevel-data">${scriptSafeJson(packReportData(data))}</script>
<script>${script}</script>
</body>
</html>
`;
}
