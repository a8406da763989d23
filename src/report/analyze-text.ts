import type { AnalysisResult } from '../analyze/index.js';
import type { ConfigChange, MachineConfigDiff } from '../machineconfig/index.js';
import type { Evidence, Finding, InputFile } from '../model/index.js';
import { formatClock, formatTime, type Millis, printable } from '../model/index.js';
import { formatRef } from './refs.js';
import type { Reporter } from './reporter.js';
import type { AnalyzeReport, AnalyzeSettings } from './results.js';
import { wrap as wrapTo } from './status-text.js';
import { type Colours, colours, plural } from './text.js';

/** How many unchecked members a rule line names before "and N more" (JSON lists them all). */
const UNCHECKED_SHOWN = 12;

export interface TextOptions {
  readonly colour: boolean;
  /** Print each finding's evidence and cause chain (default) or only the summaries. */
  readonly brief?: boolean;
  /** Columns to wrap to; absent: lines are not wrapped (files, goldens). */
  readonly width?: number;
}

/** `atlevel analyze` for a terminal: the verdict first, then each finding with its cause chain. */
export function renderAnalysisText(result: AnalysisResult, opts: TextOptions): string {
  const c = colours(opts.colour);
  const out: string[] = [];
  const failures = result.findings.filter((f) => f.severity === 'failure').length;
  const warnings = result.findings.filter((f) => f.severity === 'warning').length;
  const update = result.updates[result.updates.length - 1];
  // The level is the payload: an update that keeps its version string is told by its images.
  const samePayloadVersion =
    update?.previous === update?.target && update?.image !== undefined && update?.previousImage !== undefined;
  const what = update
    ? samePayloadVersion
      ? ` in the update of ${safe(update.target)} to ${update.toMultiArch ? 'the multi-architecture payload' : 'another payload'} (${short(update.previousImage)} → ${short(update.image)})`
      : update.previous
        ? ` in the update ${safe(update.previous)} → ${safe(update.target)}`
        : ` in the update to ${safe(update.target)}`
    : '';
  const notChecked = result.outcomes.filter((o) => o.state === 'not-checked' && o.missing.length > 0);
  // Rules that held on part of what they apply to: too little (analyze's verdict says inconclusive),
  // or enough for a PASS that must not claim every member was checked.
  const thin = result.outcomes.filter((o) => o.state === 'holds' && o.coverage?.enough === false);
  const partial = result.outcomes.filter((o) => o.state !== 'not-checked' && o.coverage !== undefined);
  const partialWords =
    partial.length > 0
      ? `, ${plural(partial.length, 'rule')} on part of what ${partial.length === 1 ? 'it applies' : 'they apply'} to`
      : '';
  const withWarnings = warnings ? ` with ${plural(warnings, 'warning')}` : '';
  const verdict =
    result.verdict === 'fail'
      ? c.bold(
          c.red(
            `FAIL: ${plural(failures, 'invariant violation')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}${what}`,
          ),
        )
      : result.verdict === 'inconclusive' && result.updates.length === 0
        ? c.bold(c.yellow(`INCONCLUSIVE: ${safe(result.verdictReason, 300)}${withWarnings}`))
        : result.verdict === 'inconclusive'
          ? c.bold(
              c.yellow(
                `INCONCLUSIVE: no invariant violated, but ${[
                  ...(notChecked.length > 0
                    ? [`${plural(notChecked.length, 'rule')} could not be checked`]
                    : []),
                  ...(thin.length > 0
                    ? [
                        `${plural(thin.length, 'rule')} held on too little of what ${thin.length === 1 ? 'it applies' : 'they apply'} to`,
                      ]
                    : []),
                ].join(' and ')}${what}`,
              ),
            )
          : result.verdict === 'no-update'
            ? c.bold(
                `NO UPDATE: the inputs hold no cluster update to check (${safe(result.verdictReason, 300)})${withWarnings}`,
              )
            : warnings
              ? c.bold(c.yellow(`PASS${withWarnings}${partialWords}${what}`))
              : partial.length > 0
                ? c.bold(c.green(`PASS: every invariant checked held${partialWords}${what}`))
                : c.bold(
                    c.green(
                      // A rule that does not apply to these inputs (the hosted rules on a standalone
                      // cluster, the ClusterVersion rules on a hosted one) was not checked: no claim of it.
                      result.outcomes.some((o) => o.state === 'not-checked')
                        ? `PASS: every invariant that applies held${what}`
                        : `PASS: every invariant checked and held${what}`,
                    ),
                  );
  out.push(verdict);
  if (result.span) {
    out.push(
      c.dim(
        `inputs: ${inputsWords(result.inputs)}, ${formatTime(result.span.from)} to ${formatTime(result.span.to)}`,
      ),
    );
  }
  const shown: Shown = { steps: new Set(), diffs: new Set(), signatures: new Set() };
  const notes = result.findings.filter((f) => f.severity === 'info');
  for (const f of result.findings) {
    if (f.severity === 'info') continue;
    out.push('');
    out.push(...findingText(f, c, opts.brief === true, shown));
  }
  if (notes.length > 0) {
    out.push('');
    out.push(c.bold('Also noted (expected during an update, not counted)'));
    for (const f of notes) out.push(`  ${c.blue('i')} ${f.rule}: ${safe(f.summary, 400)}`);
  }
  out.push('');
  out.push(c.bold('Rules'));
  for (const o of result.outcomes) {
    const fails = o.findings.filter((f) => f.severity === 'failure').length;
    const warns = o.findings.filter((f) => f.severity === 'warning').length;
    const mark =
      o.state === 'not-checked' ? c.dim('–') : fails ? c.red('✗') : warns ? c.yellow('!') : c.green('✓');
    const tail =
      o.state === 'not-checked'
        ? c.dim(`not checked: ${o.reason ?? ''}`)
        : fails || warns
          ? `${o.state === 'violated' ? '' : 'holds, '}${fails ? plural(fails, 'failure') : ''}${fails && warns ? ', ' : ''}${warns ? plural(warns, 'warning') : ''}`
          : 'holds';
    const cov = o.state !== 'not-checked' ? o.coverage : undefined;
    const part = cov
      ? `${fails || warns ? ', ' : ' '}for ${cov.checked} of ${cov.total} ${safe(cov.of)}; ${cov.unchecked.length} not checked: ${safe(cov.why, 200)}`
      : '';
    out.push(`  ${mark} ${o.rule.id.padEnd(44)} ${tail}${part}`);
    if (cov) {
      // The members an update in progress had not reached apart from those that lack data: only the
      // latter have `needs`.
      const notYet = new Set(cov.notYet ?? []);
      const lacking = cov.unchecked.filter((n) => !notYet.has(n));
      if (lacking.length > 0) out.push(c.dim(`      not checked: ${namesText(lacking)}`));
      if (notYet.size > 0) out.push(c.dim(`      not yet at the target: ${namesText([...notYet])}`));
      for (const m of cov.needs) out.push(c.dim(`      needs ${safe(m, 300)}`));
    }
    for (const m of o.missing) out.push(c.dim(`      needs ${safe(m, 300)}`));
  }
  const width = opts.width;
  const lines = width === undefined ? out : out.flatMap((l) => fitLine(l, width));
  return `${lines.join('\n')}\n`;
}

/** The first UNCHECKED_SHOWN names, and how many more. */
function namesText(all: readonly string[]): string {
  const names = all.slice(0, UNCHECKED_SHOWN).map((n) => safe(n, 80));
  const more = all.length - names.length;
  return `${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * Wrap one report line to `width` columns as status does (report/status-text.ts wrap): continuation
 * lines hang two columns in from the line's own indent, so evidence stays under its finding.
 */
function fitLine(line: string, width: number): string[] {
  const indent = /^ */.exec(line)?.[0].length ?? 0;
  const hang = Math.min(indent + 2, Math.floor(width / 2));
  const [first, ...rest] = wrapTo(line, width);
  if (first === undefined) return [line];
  if (rest.length === 0) return [first];
  const tail = wrapTo(rest.join(' ').replace(/ {2,}/g, ' ').trim(), width - hang).map(
    (l) => ' '.repeat(hang) + l.trimEnd(),
  );
  return [first.trimEnd(), ...tail];
}

/** What earlier findings already printed: a shared cause chain is printed once. */
interface Shown {
  steps: Set<string>;
  diffs: Set<string>;
  signatures: Set<string>;
}

function findingText(f: Finding, c: Colours, brief: boolean, shown: Shown): string[] {
  const out: string[] = [];
  const icon = f.severity === 'failure' ? c.red('✗') : f.severity === 'warning' ? c.yellow('!') : c.blue('i');
  out.push(`${icon} ${c.bold(f.rule)}${f.at !== undefined ? c.dim(`  at ${formatTime(f.at)}`) : ''}`);
  out.push(`  ${safe(f.summary, 600)}`);
  if (brief) return out;
  if (f.evidence.length > 0) {
    out.push(`  ${c.bold('Evidence')}`);
    for (const e of f.evidence) out.push(...evidenceLines(e, c, '    '));
  }
  const ex = f.explanation;
  if (ex && ex.steps.length > 0) {
    out.push(`  ${c.bold('Cause')}`);
    ex.steps.forEach((s, i) => {
      out.push(`    ${i + 1}. ${safe(s.title, 400)}`);
      if (shown.steps.has(s.title)) {
        out.push(c.dim('         (evidence as above)'));
        return;
      }
      shown.steps.add(s.title);
      for (const e of s.evidence) out.push(...evidenceLines(e, c, '         '));
    });
  }
  const diffKey = ex?.configDiff ? `${ex.configDiff.from} ${ex.configDiff.to}` : '';
  if (ex?.configDiff && !ex.configDiff.identical && !shown.diffs.has(diffKey)) {
    shown.diffs.add(diffKey);
    out.push(...diffLines(ex.configDiff, c));
  }
  if (ex?.signature && shown.signatures.has(ex.signature.id)) {
    out.push(`  ${c.bold('Signature')} ${ex.signature.id} (as above)`);
  } else if (ex?.signature) {
    shown.signatures.add(ex.signature.id);
    out.push(`  ${c.bold('Signature')} ${ex.signature.id}: ${ex.signature.title}`);
    out.push(...wrap(ex.signature.detail, 96).map((l) => `    ${c.dim(l)}`));
    for (const r of ex.signature.references) out.push(`    ${r}`);
  }
  return out;
}

function evidenceLines(e: Evidence, c: Colours, indent: string): string[] {
  const when = e.at !== undefined ? `${clock(e.at)} ` : '';
  const where = e.ref ? c.dim(`  [${elide(formatRef(e.ref), 300)}]`) : '';
  const name = e.object?.slice(e.object.indexOf('/') + 1);
  const repeats = name !== undefined && e.statement.includes(name);
  const obj = e.object && !repeats ? `${c.cyan(safe(e.object, 120))} ` : '';
  return [`${indent}${when}${obj}${safe(e.statement, 400)}${where}`];
}

function diffLines(diff: MachineConfigDiff, c: Colours): string[] {
  const out = [`  ${c.bold('What changed')} ${safe(diff.from)} → ${safe(diff.to)}`];
  for (const ch of diff.changes) out.push(...changeLines(ch, c));
  return out;
}

function changeLines(ch: ConfigChange, c: Colours): string[] {
  const label =
    ch.part === 'units' ? 'unit' : ch.part === 'files' ? 'file' : ch.part === 'dropins' ? 'drop-in' : ch.part;
  const out = [`    ${label} ${c.bold(safe(ch.name))} ${ch.change}`];
  for (const l of (ch.changedLines ?? []).slice(0, 6)) {
    if (l.before !== undefined) out.push(c.red(`      -${safe(l.before, 300)}`));
    if (l.after !== undefined) out.push(c.green(`      +${safe(l.after, 300)}`));
  }
  if (!ch.changedLines?.length && (ch.before !== undefined || ch.after !== undefined)) {
    out.push(`      ${safe(ch.before ?? '∅', 200)} → ${safe(ch.after ?? '∅', 200)}`);
  }
  for (const a of ch.attributes ?? []) out.push(`      ${safe(a)}`);
  for (const img of ch.images ?? []) {
    out.push(
      img.component
        ? `      image ${c.bold(safe(img.component))}: ${short(img.before)} → ${short(img.after)}`
        : `      image not named by a release read${img.replaced ? ` (it replaced ${safe(img.replaced)})` : ''}: ${short(img.before)} → ${short(img.after)}`,
    );
  }
  return out;
}

function short(pullSpec: string | undefined): string {
  if (!pullSpec) return '∅';
  const d = /sha256:([0-9a-f]{64})/.exec(pullSpec);
  return d?.[1] ? `sha256:${d[1].slice(0, 12)}…` : safe(pullSpec, 120);
}

function clock(ms: Millis): string {
  return formatClock(ms).padEnd(12);
}

function safe(s: string, max = 200): string {
  return printable(s, max);
}

/** Refs and notes start with a path (a gs:// one runs to 150 characters): cut the middle, keep the end. */
function elide(s: string, max: number): string {
  const clean = printable(s, Number.MAX_SAFE_INTEGER);
  if (clean.length <= max) return clean;
  const head = Math.floor(max * 0.4);
  return `${clean.slice(0, head)}…${clean.slice(clean.length - (max - head - 1))}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The text reporter of `atlevel analyze` (report/formats.ts). */
export const analyzeText: Reporter<AnalyzeReport, AnalyzeSettings> = (r, o) =>
  renderAnalysisText(r.result, { colour: o.colour, brief: o.brief, width: o.width });

/**
 * What the inputs were, counted: files, or the resource lists read from a live cluster (a list
 * read live is no file, and "9 files" made users look for them).
 */
function inputsWords(inputs: readonly InputFile[]): string {
  const live = inputs.filter((i) => i.reader === 'live').length;
  const files = inputs.length - live;
  if (live === 0) return plural(files, 'file');
  const lists = `${plural(live, 'resource list')} read live`;
  return files === 0 ? lists : `${plural(files, 'file')} and ${lists}`;
}
