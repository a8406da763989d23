/**
 * The report's stylesheet, inlined into the page (its hash goes into the CSP). System fonts only:
 * the page must not fetch anything. Colours of bars live in page/palette.ts, since the canvas draws them.
 */
export const PAGE_CSS = `
:root{--fg:#1d2329;--muted:#5b6670;--line:#d8dde3;--bg:#fff;--panel:#f6f8fa;--accent:#1f5fbf;
--fail:#c62828;--warn:#b26a00;--info:#35699c;--sel:#fff4c2;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:14px;color:var(--fg);background:var(--bg)}
*{box-sizing:border-box}
body{margin:0;padding:0 20px 40px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
.page-header h1{font-size:20px;margin:16px 0 4px;overflow-wrap:anywhere}
.noscript{padding:12px;border:1px solid var(--line);background:var(--panel)}
.meta{color:var(--muted);margin:0 0 12px;overflow-wrap:anywhere}
.verdict{display:inline-block;font-weight:600;padding:4px 10px;border-radius:4px;margin:4px 0 12px}
.verdict.fail{background:#fdecea;color:var(--fail)}.verdict.warn{background:#fff4e0;color:var(--warn)}.verdict.pass{background:#e8f5e9;color:#2e7d32}.verdict.inconclusive{background:#fff4e0;color:var(--warn)}.verdict.none{background:#eceff1;color:#37474f}tr.rule.not-checked td{color:#616161}
h2{font-size:16px;margin:20px 0 8px}
.findings{display:flex;flex-direction:column;gap:10px}
.finding{border:1px solid var(--line);border-left:5px solid var(--info);border-radius:6px;background:var(--bg)}
.finding.failure{border-left-color:var(--fail)}.finding.warning{border-left-color:var(--warn)}
.finding.selected{box-shadow:0 0 0 2px var(--accent);background:#fbfcff}
.finding-head{display:flex;gap:10px;align-items:baseline;padding:10px 12px;cursor:pointer;width:100%;border:0;background:none;text-align:left;font:inherit;color:inherit}
.finding-head:focus-visible{outline:2px solid var(--accent)}
.sev{font-size:11px;font-weight:700;text-transform:uppercase;padding:2px 6px;border-radius:3px;color:#fff;background:var(--info);flex:none}
.sev.failure{background:var(--fail)}.sev.warning{background:var(--warn)}
.rule{color:var(--muted);font-size:12px;flex:none}
.summary{font-weight:600;overflow-wrap:anywhere}
.finding-body{padding:0 12px 12px 12px}
.hint{color:var(--muted);font-size:12px;margin:0 0 6px}
.moments{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 10px;padding:0;list-style:none}
.moment{border:1px solid var(--line);border-radius:12px;padding:2px 10px;background:var(--panel);cursor:pointer;font:inherit;font-size:12px;color:inherit}
.moment:hover{border-color:var(--accent)}
.moment .t{font-family:ui-monospace,Menlo,Consolas,monospace;color:var(--muted);margin-right:6px}
details{margin:6px 0}
summary{cursor:pointer;font-weight:600;font-size:13px}
ol.steps,ul.evidence{margin:4px 0 4px 0;padding-left:22px}
ol.steps>li{margin:6px 0}
ul.evidence>li{margin:3px 0;overflow-wrap:anywhere}
.ev-meta{color:var(--muted);font-size:12px}
.ev-meta span+span::before{content:" · "}
.ev-obj{cursor:pointer;text-decoration:underline dotted}
.signature{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:8px 10px;margin:8px 0}
.diff-change{margin:8px 0;border:1px solid var(--line);border-radius:4px}
.diff-change>.diff-title{padding:6px 8px;background:var(--panel);border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.diff-kv{padding:4px 8px;overflow-wrap:anywhere}
pre.diff{margin:0;padding:6px 8px;overflow:auto;max-height:360px;white-space:pre}
pre.diff .add{background:#e6ffec;display:block}pre.diff .del{background:#ffebe9;display:block}pre.diff .hunk{color:var(--accent);display:block}
.chart-panel{border:1px solid var(--line);border-radius:6px;background:var(--bg);margin-top:8px}
.toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:8px;border-bottom:1px solid var(--line);background:var(--panel)}
.toolbar input[type=search]{width:260px;padding:4px 8px;border:1px solid var(--line);border-radius:4px;font:inherit}
.toolbar button{padding:3px 10px;border:1px solid var(--line);border-radius:4px;background:#fff;font:inherit;cursor:pointer}
.toolbar button:hover{border-color:var(--accent)}
.toolbar .status{color:var(--muted);font-size:12px;margin-left:auto}
.legend{display:flex;flex-wrap:wrap;gap:12px;padding:6px 8px;font-size:12px;color:var(--muted);border-bottom:1px solid var(--line)}
.legend .sw{display:inline-block;width:14px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.chart-scroll{position:relative;overflow-y:auto;overflow-x:hidden}
.chart-scroll canvas{position:sticky;top:0;display:block;cursor:grab;outline:none}
.chart-scroll canvas.dragging{cursor:grabbing}
.chart-scroll canvas:focus-visible{box-shadow:inset 0 0 0 2px var(--accent)}
.tooltip{position:fixed;z-index:10;max-width:560px;background:#1d2329;color:#fff;border-radius:4px;padding:6px 8px;font-size:12px;pointer-events:none;box-shadow:0 2px 8px rgba(0,0,0,.25);overflow-wrap:anywhere}
.tooltip .tt-time{font-family:ui-monospace,Menlo,Consolas,monospace;color:#c9d1d9}
.tooltip .tt-loc{font-weight:600;margin:2px 0}
.tooltip .tt-msg{white-space:pre-wrap;margin:2px 0}
.tooltip .tt-claim{margin:2px 0;color:#f5c26b;font-style:italic}
.tooltip .tt-ref{color:#9aa4ae;font-family:ui-monospace,Menlo,Consolas,monospace}
table.inputs{border-collapse:collapse;font-size:12.5px}
table.inputs td,table.inputs th{border-bottom:1px solid var(--line);padding:3px 10px 3px 0;text-align:left;overflow-wrap:anywhere}
.empty{color:var(--muted)}
`;
