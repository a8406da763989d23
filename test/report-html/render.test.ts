import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildReportData,
  renderHtmlReport,
  renderPage,
  scriptSafeJson,
} from '../../src/report/html/index.js';
import { unpackReportData } from '../../src/report/html/pack.js';
import { PAGE_CSS } from '../../src/report/html/page-style.js';
import { buildPageBundle } from './bundle.js';
import { bugInput, hostileInput, XSS_IMG, XSS_NAME, XSS_SCRIPT } from './inputs.js';

const sha = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The text of every `<script …>` element, with its opening tag. */
function scripts(html: string): { open: string; body: string }[] {
  return [...html.matchAll(/(<script[^>]*>)([\s\S]*?)<\/script>/g)].map((m) => ({
    open: m[1] ?? '',
    body: m[2] ?? '',
  }));
}

describe('the page around the data', () => {
  const data = buildReportData(hostileInput());
  const script = 'document.title="ok"';
  const html = renderPage(data, script);

  it('opens with a CSP that allows only its own inline script and style, by hash, and no network at all', () => {
    const head = html.slice(0, html.indexOf('<style>'));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(head)?.[1]
      ?.replace(/&#39;/g, "'");
    expect(csp).toBe(
      `default-src 'none'; script-src ${sha(script)}; style-src ${sha(PAGE_CSS)}; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    // The policy must come before anything it governs.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    // Outside the inert data, the page names no URL at all.
    const outsideData = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    expect(/unsafe-inline|unsafe-eval|https?:\/\//.exec(outsideData)).toBeNull();
  });

  it('holds exactly two script elements: the inert data and the hashed code', () => {
    const found = scripts(html);
    expect(found.map((s) => s.open)).toEqual([
      '<script type="application/json" id="atlevel-data">',
      '<script>',
    ]);
    expect(found[1]?.body).toBe(script);
  });

  it('escapes every hostile string: no markup from the input survives, and the JSON reads back exactly', () => {
    expect(html).not.toContain(XSS_IMG);
    expect(html).not.toContain('<img');
    expect(html.match(/<\/script/g)).toHaveLength(2);
    expect(html).not.toMatch(/<!--/);
    expect(html).not.toMatch(/[\u2028\u2029]/);
    const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1];
    expect(title).toBe(
      '&lt;/title&gt;&lt;img src=x onerror=&quot;window.__pwned=1;alert(1)&quot;&gt;&lt;/script&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt;',
    );
    const json = scripts(html)[0]?.body ?? '';
    expect(unpackReportData(JSON.parse(json))).toEqual(data);
    expect(JSON.parse(json).rows.map((r: { key: string }) => r.key)).toContain(`ClusterOperator/${XSS_NAME}`);
    expect(JSON.parse(json).rows.map((r: { key: string }) => r.key)).toContain(`Node/${XSS_SCRIPT}`);
  });

  it('refuses code that could close its own script element', () => {
    expect(() => renderPage(data, 'var s="</script>"')).toThrow(/cannot be inlined/);
    expect(() => renderPage(data, 'var s="<!--"')).toThrow(/cannot be inlined/);
  });
});

describe('scriptSafeJson', () => {
  it('round-trips any value and never emits a character that could end the element', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        for (const v of [value, text, { text, list: [text, value] }]) {
          const out = scriptSafeJson(v);
          expect(out).not.toMatch(/[<>&\u2028\u2029]/);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
    );
  });
});

describe('renderHtmlReport with the built page script', () => {
  beforeAll(async () => {
    await buildPageBundle();
  });

  it('inlines the bundle, which is small and free of network URLs', () => {
    const html = renderHtmlReport(bugInput());
    const code = scripts(html)[1]?.body ?? '';
    expect(code.length).toBeGreaterThan(10_000);
    expect(code.length).toBeLessThan(120_000);
    expect(code).not.toMatch(/https?:\/\/|fetch\(|XMLHttpRequest|WebSocket|importScripts|\beval\(/);
    expect(html).toContain(`script-src ${sha(code)}`.replace(/'/g, '&#39;'));
  });
});
