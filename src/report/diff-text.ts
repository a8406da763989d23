/**
 * `atlevel diff` for a terminal: a header naming both configs, then the changes grouped by part and
 * by path/unit, each with `diff -u`-style hunks, attribute changes and the images it swaps.
 */
import type {
  ConfigChange,
  ConfigInfo,
  ConfigPart,
  ImageChange,
  MachineConfigDiff,
} from '../machineconfig/index.js';
import { terminalSafe } from '../model/index.js';
import type { Reporter } from './reporter.js';
import type { DiffReport } from './results.js';
import { type Colours, colours, plural, wrap } from './text.js';

export interface DiffTextOptions {
  readonly colour: boolean;
  /** Whether release payloads were given (so an image without a component is known not to be one). */
  readonly releasesGiven?: boolean;
  /** Which configs were picked and why, e.g. `the two newest rendered configs of pool master`. */
  readonly how?: string;
  /** Columns the prose lines wrap to (hunks keep the files' own lines). */
  readonly width?: number;
}

const PART_TITLES: Record<ConfigPart, string> = {
  ignitionVersion: 'Ignition version',
  osImageURL: 'OS image (osImageURL)',
  kernelType: 'kernel type',
  fips: 'FIPS',
  kernelArguments: 'kernel arguments',
  extensions: 'extensions',
  files: 'files',
  units: 'systemd units',
  dropins: 'systemd drop-ins',
  passwd: 'users (passwd)',
  other: 'other config',
};

const MARK = { added: '+', removed: '-', modified: '~' } as const;

/** Control characters from an input must not reach the terminal (model/terminal.ts); tabs are kept. */
const clean = terminalSafe;

/** `sha256:ef6684475a8f…` for a digest reference, the pull spec as is otherwise. */
export function shortImage(ref: string): string {
  const m = /sha256:([0-9a-f]{64})/.exec(ref);
  return m ? `sha256:${m[1]!.slice(0, 12)}…` : ref;
}

function infoLine(label: string, info: ConfigInfo | undefined, name: string, c: Colours): string {
  const parts = [c.bold(clean(name))];
  if (info?.created) parts.push(`created ${clean(info.created)}`);
  if (info?.releaseImageVersion) parts.push(`release ${clean(info.releaseImageVersion)}`);
  if (info?.controllerVersion) parts.push(`controller ${clean(info.controllerVersion.slice(0, 12))}`);
  if (info?.ignitionVersion) parts.push(`Ignition ${clean(info.ignitionVersion)}`);
  return `${label} ${parts.join(c.dim(', '))}`;
}

function imageLine(img: ImageChange, releasesGiven: boolean, c: Colours): string {
  // A new image no release names is not its predecessor's component: say what it replaced instead.
  const who = img.component
    ? c.bold(c.cyan(img.component))
    : img.replaced
      ? `${c.dim('(in no release given; it replaced')} ${c.cyan(clean(img.replaced))}${c.dim(')')}`
      : c.dim(releasesGiven ? '(in no release given)' : 'image');
  // With a component the digest suffices (the component says which image); without one, show the whole reference.
  const show = img.component ? shortImage : (ref: string) => ref;
  const before = img.before !== undefined ? show(img.before) : '(none)';
  const after = img.after !== undefined ? show(img.after) : '(none)';
  return `${who}: ${clean(before)} → ${clean(after)}`;
}

function hunkLines(textDiff: string, c: Colours): string[] {
  return textDiff.split('\n').map((line) => {
    const l = clean(line);
    if (l.startsWith('@@')) return c.cyan(l);
    if (l.startsWith('+')) return c.green(l);
    if (l.startsWith('-')) return c.red(l);
    return l;
  });
}

function renderChange(
  ch: ConfigChange,
  d: MachineConfigDiff,
  opts: DiffTextOptions,
  c: Colours,
  width: number,
): string[] {
  const colourOf = ch.change === 'added' ? c.green : ch.change === 'removed' ? c.red : c.yellow;
  const summary =
    ch.change === 'added'
      ? ch.after
      : ch.change === 'removed'
        ? ch.before
        : ch.before !== undefined || ch.after !== undefined
          ? `${ch.before ?? '(unset)'} → ${ch.after ?? '(unset)'}`
          : undefined;
  const head = `${colourOf(MARK[ch.change])} ${c.bold(clean(ch.name))} ${c.dim(ch.change)}`;
  // A kernel argument or extension is its own summary: `+ nosmt added`, not `+ nosmt added: nosmt`.
  // Prose wraps to the width; the hunks are the files' own lines, and their ---/+++ headers name one
  // config and path each, so they are never broken (a wrapped hunk line could not be applied).
  const out = wrap(
    summary !== undefined && summary !== ch.name ? `${head}: ${clean(summary)}` : head,
    width,
    4,
  );
  for (const a of ch.attributes ?? []) out.push(...wrap(`    ${clean(a)}`, width, 6));
  if (ch.textDiff) {
    out.push(c.dim(`    --- ${clean(d.from)}:${clean(ch.name)}`));
    out.push(c.dim(`    +++ ${clean(d.to)}:${clean(ch.name)}`));
    for (const l of hunkLines(ch.textDiff, c)) out.push(`    ${l}`);
  }
  if (ch.images?.length) {
    out.push('    images:');
    for (const img of ch.images)
      out.push(...wrap(`      ${imageLine(img, opts.releasesGiven === true, c)}`, width, 8));
  }
  return out;
}

export function renderDiffText(d: MachineConfigDiff, opts: DiffTextOptions): string {
  const c = colours(opts.colour);
  const width = opts.width ?? Number.POSITIVE_INFINITY;
  const out: string[] = [];
  if (opts.how) out.push(...wrap(clean(opts.how), width).map((l) => c.dim(l)));
  out.push(...wrap(infoLine('from', d.fromInfo, d.from, c), width, 5));
  out.push(...wrap(infoLine('to  ', d.toInfo, d.to, c), width, 5));
  const within = d.filter
    ? ` (within${d.filter.only ? ` --only ${d.filter.only.join(',')}` : ''}${d.filter.path ? ` --path ${clean(d.filter.path)}` : ''})`
    : '';
  if (d.identical) {
    out.push(c.green(`identical${within}`));
    return `${out.join('\n')}\n`;
  }
  const counts = new Map<ConfigPart, number>();
  for (const ch of d.changes) counts.set(ch.part, (counts.get(ch.part) ?? 0) + 1);
  const byPart = [...counts].map(([p, n]) => `${PART_TITLES[p]} ${n}`).join(', ');
  out.push(
    ...wrap(`${plural(d.changes.length, 'change')}${within}: ${byPart}`, width, 2).map((l) => c.bold(l)),
  );

  const images = d.changes.flatMap((ch) => ch.images ?? []);
  const components = [...new Set(images.flatMap((i) => (i.component ? [i.component] : [])))];
  if (components.length > 0)
    out.push(...wrap(`release components: ${components.map((n) => c.cyan(n)).join(', ')}`, width, 2));
  else if (images.length > 0 && !opts.releasesGiven) {
    out.push(
      ...wrap(
        'images changed; pass --release-from and --release-to to name their release components',
        width,
      ).map((l) => c.dim(l)),
    );
  }

  let part: ConfigPart | undefined;
  for (const ch of d.changes) {
    if (ch.part !== part) {
      part = ch.part;
      out.push('', c.bold(c.underline(PART_TITLES[part])));
    }
    out.push(...renderChange(ch, d, opts, c, width));
  }
  return `${out.join('\n')}\n`;
}

/** The text reporter of `atlevel diff` (report/formats.ts). */
export const diffText: Reporter<DiffReport> = (r, o) =>
  renderDiffText(r.diff, {
    colour: o.colour,
    width: o.width,
    releasesGiven: r.releases.from !== undefined || r.releases.to !== undefined,
    ...(r.how !== undefined ? { how: r.how } : {}),
  });
