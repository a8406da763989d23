/**
 * `atlevel release diff` and `atlevel release info` for a terminal: components changed/added/removed
 * with both pull specs and commits, then what the change means for rendered configs and nodes.
 */
import type { ReleaseComponent, ReleasePayload } from '../model/index.js';
import { terminalSafe, withinParentheses } from '../model/index.js';
import { type ComponentMatch, configEmbedding, type ReleaseDiff, referenceText } from '../release/index.js';
import type { Reporter } from './reporter.js';
import type { ReleaseInfoReport } from './results.js';
import { type Colours, colours, plural, wrap } from './text.js';

/** Control characters from an input must not reach the terminal (model/terminal.ts); tabs are kept. */
const clean = terminalSafe;

/** Why a component cannot be compared, in the `cannot compare` list. */
const WHY_INCOMPARABLE: Readonly<Record<ReleaseDiff['incomparable'][number]['why'], string>> = {
  placeholder: 'a placeholder, not an image',
  'tag-vs-digest': 'a tag against a digest',
  'tag-vs-tag': 'two different tags',
};

function commitText(x: ReleaseComponent): string {
  if (!x.commit) return '';
  const where = x.sourceLocation ? ` ${clean(x.sourceLocation)}` : '';
  return `${clean(x.commit.slice(0, 12))}${where}`;
}

function sideLine(label: string, s: ReleaseDiff['from'], c: Colours): string {
  const image = s.image ? `, ${clean(s.image)}` : '';
  // A file without a version is named by its file, never as a release called "unknown".
  if (s.version === undefined)
    return `${label} ${c.bold(clean(s.file))}${image} ${c.dim(`(no version, ${plural(s.components, 'component')})`)}`;
  return `${label} ${c.bold(clean(s.version))}${image} ${c.dim(`(${clean(withinParentheses(s.file))}, ${plural(s.components, 'component')})`)}`;
}

export function renderReleaseDiffText(d: ReleaseDiff, opts: { colour: boolean; width?: number }): string {
  const c = colours(opts.colour);
  const width = opts.width ?? Number.POSITIVE_INFINITY;
  const out: string[] = [sideLine('from', d.from, c), sideLine('to  ', d.to, c)];
  out.push(
    c.bold(
      `components: ${d.changed.length} changed, ${d.added.length} added, ${d.removed.length} removed, ${d.unchanged} unchanged${d.incomparable.length > 0 ? `, ${d.incomparable.length} cannot be compared` : ''}`,
    ),
  );
  if (d.changed.length > 0) {
    out.push('', c.bold(c.underline('changed')));
    for (const ch of d.changed) {
      out.push(`${c.yellow('~')} ${c.bold(clean(ch.name))}`);
      out.push(`    ${c.red(`- ${clean(referenceText(ch.before))}`)}`);
      out.push(`    ${c.green(`+ ${clean(referenceText(ch.after))}`)}`);
      if (ch.before.commit || ch.after.commit) {
        const same = ch.commitChanged === false ? ' (same commit: a rebuild)' : '';
        out.push(`    commit ${commitText(ch.before) || '?'} → ${commitText(ch.after) || '?'}${same}`);
      }
    }
  }
  const list = (
    title: string,
    items: readonly ReleaseComponent[],
    mark: string,
    colour: (s: string) => string,
  ) => {
    if (items.length === 0) return;
    out.push('', c.bold(c.underline(title)));
    for (const x of items) out.push(`${colour(mark)} ${c.bold(clean(x.name))} ${clean(referenceText(x))}`);
  };
  list('added', d.added, '+', c.green);
  list('removed', d.removed, '-', c.red);
  if (d.incomparable.length > 0) {
    out.push('', c.bold(c.underline('cannot compare')));
    for (const x of d.incomparable) {
      const why = WHY_INCOMPARABLE[x.why];
      out.push(`${c.dim('?')} ${c.bold(clean(x.name))} ${c.dim(`(${why})`)}`);
      out.push(`    ${clean(referenceText(x.before))}`);
      out.push(`    ${clean(referenceText(x.after))}`);
    }
  }

  out.push('', c.bold(c.underline('rendered MachineConfigs')));
  const unsure = d.incomparable.filter((x) => configEmbedding(x.name) !== undefined);
  if (d.reachingConfigs.length === 0 && d.nodesWillRoll === 'cannot-tell') {
    out.push(c.yellow('cannot tell whether rendered configs change, so whether nodes roll'));
  } else if (d.reachingConfigs.length === 0) {
    out.push(
      c.green(
        'no component embedded in rendered configs changed: nodes will not roll (annotation-only update)',
      ),
    );
  } else {
    const verdict =
      d.nodesWillRoll === 'yes'
        ? c.yellow('rendered configs will change: every pool rolls its nodes (drain and reboot)')
        : d.nodesWillRoll === 'cannot-tell'
          ? c.yellow(
              'rendered configs will change on on-prem platforms (baremetal, vSphere IPI, OpenStack, ...); whether every pool rolls cannot be told',
            )
          : c.yellow(
              'rendered configs will change on on-prem platforms only (baremetal, vSphere IPI, OpenStack, ...)',
            );
    out.push(verdict);
    for (const r of d.reachingConfigs) {
      const scope = r.reach === 'on-prem' ? c.dim(' [on-prem]') : '';
      out.push(`  ${c.cyan(r.name)} ${c.dim(`(${r.change})`)}${scope}: ${r.embeddedIn}`);
    }
  }
  for (const x of unsure) {
    out.push(
      `  ${c.cyan(clean(x.name))} ${c.dim('(cannot compare)')}: ${configEmbedding(x.name)?.embeddedIn ?? ''}`,
    );
  }
  const mco = d.machineConfigOperator;
  const mcoText = mco.unlisted
    ? 'in neither payload'
    : mco.cannotCompare
      ? 'image cannot be compared'
      : d.added.some((x) => x.name === 'machine-config-operator')
        ? 'only in the new payload'
        : d.removed.some((x) => x.name === 'machine-config-operator')
          ? 'only in the old payload'
          : !mco.imageChanged
            ? 'image unchanged'
            : mco.commitChanged === true
              ? 'image and commit changed'
              : mco.commitChanged === false
                ? 'image rebuilt, same commit'
                : 'image changed (commit not recorded)';
  out.push(
    `machine-config-operator: ${mcoText}; OS image: ${d.osImage === 'cannot-tell' ? 'cannot tell' : d.osImage}`,
  );
  for (const w of d.warnings) out.push(...wrap(`warning: ${w}`, width, 2).map((l) => c.bold(c.red(l))));
  if (d.levelTooEarly === 'no' && d.reachingConfigs.length > 0) {
    out.push(
      c.dim(
        "the machine-config operator's commit/OS guard sees this change; level is reported after the rollout",
      ),
    );
  }
  return `${wrapEach(out, width).join('\n')}\n`;
}

/**
 * Every line wrapped to the width, a continuation indented two columns under the line's own text. A
 * pull spec or URL longer than the width stays whole on its own line (text.ts, wrap); a changed
 * component's `- before` and `+ after` lines are never broken, so the mark stays with its reference.
 */
function wrapEach(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) =>
    MARKED_REFERENCE.test(line) ? [line] : wrap(line, width, (/^ */.exec(line)?.[0].length ?? 0) + 2),
  );
}

/** `    - quay.io/…@sha256:…`, coloured or not: a mark and one word. */
const MARKED_REFERENCE = /^ *(?:\u001b\[[0-9;]*m)*[-+] \S+$/;

export function renderReleaseInfoText(p: ReleasePayload, opts: { colour: boolean; width?: number }): string {
  const c = colours(opts.colour);
  const out = [
    p.version !== undefined
      ? `${c.bold(clean(p.version))}${p.image ? ` ${clean(p.image)}` : ''} ${c.dim(`(${clean(withinParentheses(p.ref.file))})`)}`
      : `${c.bold(clean(p.ref.file))}${p.image ? ` ${clean(p.image)}` : ''} ${c.dim('(no version)')}`,
  ];
  out.push(plural(p.components.length, 'component'));
  const width = Math.min(40, Math.max(0, ...p.components.map((x) => x.name.length)));
  for (const x of [...p.components].sort((a, b) => a.name.localeCompare(b.name))) {
    const commit = x.commit ? c.dim(` ${clean(x.commit.slice(0, 12))}`) : '';
    out.push(`  ${clean(x.name).padEnd(width)}  ${clean(referenceText(x))}${commit}`);
  }
  return `${wrapEach(out, opts.width ?? Number.POSITIVE_INFINITY).join('\n')}\n`;
}

/** `--component-for`: one line per match, `name pullspec`. */
export function renderComponentMatchesText(matches: readonly ComponentMatch[]): string {
  return matches.map((m) => `${clean(m.component.name)} ${clean(referenceText(m.component))}\n`).join('');
}

/** The text reporter of `atlevel release info` (report/formats.ts): the payload, or a lookup's answer. */
export const releaseInfoText: Reporter<ReleaseInfoReport> = (r, o) => {
  if (r.lookup === undefined) return renderReleaseInfoText(r.payload, o);
  // An image stream reference is printed as what it is (`ImageStreamImage ocp/4.22@sha256:…`), never
  // passed off as a pull spec; the CLI says so on stderr.
  if (r.lookup.by === 'image-for')
    return r.lookup.matches.map((m) => `${clean(referenceText(m.component))}\n`).join('');
  return renderComponentMatchesText(r.lookup.matches);
};
