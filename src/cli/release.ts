/** `atlevel release diff|info`: release payloads compared, listed and searched. */
import type { Command } from '@commander-js/extra-typings';
import { loadRelease as appLoadRelease } from '../app/index.js';
import {
  type Budget,
  plural,
  printable,
  type ReleasePayload,
  STDIN_NAME,
  terminalSafe,
  UsageError,
  withinParentheses,
} from '../model/index.js';
import { ComponentIndex, diffReleases, MIN_DIGEST_PREFIX, shortDigestPrefix } from '../release/index.js';
import type { ReleaseInfoReport } from '../report/index.js';
import { RELEASE_DIFF_FORMATS, RELEASE_INFO_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox } from './exit.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { type RemoteFlags, remoteFlags, remoteOptions } from './remote-flags.js';
import { STDIN, stdinOnce } from './stdin.js';

const SOURCES =
  '`oc adm release info -o json` output, an image-references file (JSON or YAML), a release payload folder, or - for standard input';

export function defineRelease(release: Command, exit: ExitBox): void {
  const diff = release
    .command('diff')
    .description('components added, removed and changed between two releases, and whether nodes will roll')
    .argument('<from>', `release updated from: ${SOURCES}`)
    .argument('<to>', 'release updated to, in any of the same forms')
    .addOption(formatOption(RELEASE_DIFF_FORMATS))
    .addOption(widthOption())
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 same components, 1 components differ, 2 bad input or usage, 4 nothing known to differ but\n' +
        'something could not be compared (a tag against a digest or another tag, placeholders, no components).\n' +
        `Example: atlevel release diff ${examplePath('bug-2019850/release/release-from.json')} ${examplePath('bug-2019850/release/release-to.json')}`,
    );
  remoteFlags(diff).action(async (from, to, flags) => {
    textOnly(flags.output, { '--width': flags.width });
    stdinOnce([from, to]);
    const [a, b] = await Promise.all([loadRelease(from, flags), loadRelease(to, flags)]);
    const d = diffReleases(a, b);
    await emit(await render(RELEASE_DIFF_FORMATS, flags.output, d, textSettings(flags)), flags.out);
    // Nothing known to differ but something that could not be compared: inconclusive, as for analyze.
    exit.code =
      d.changed.length + d.added.length + d.removed.length > 0
        ? EXIT.failure
        : d.incomparable.length > 0 || d.cannotTell.length > 0
          ? EXIT.inconclusive
          : EXIT.ok;
  });

  const info = release
    .command('info')
    .description('list a release payload, or look up one component by name or by image')
    .argument('<release>', SOURCES)
    .option(
      '--image-for <name>',
      'print the pull spec of component NAME (like oc adm release info --image-for)',
    )
    .option(
      '--component-for <ref>',
      'print the component(s) an image belongs to: a pull spec, a digest in full, as printed (sha256:0adaefcf3675…) or as 12 or more hex digits',
    )
    .addOption(formatOption(RELEASE_INFO_FORMATS))
    .addOption(widthOption())
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 found, 1 no such component or image in the release, 2 bad input or usage.\n' +
        `Example: atlevel release info ${examplePath('bug-2019850/release/release-to.json')} --component-for sha256:0adaefcf3675…`,
    );
  remoteFlags(info).action(async (file, flags) => {
    textOnly(flags.output, { '--width': flags.width });
    if (flags.imageFor !== undefined && flags.componentFor !== undefined) {
      throw new UsageError('give --image-for or --component-for, not both');
    }
    // A lookup's answer is pull specs or one line per match, for scripts: it is never wrapped.
    const lookup =
      flags.imageFor !== undefined
        ? '--image-for'
        : flags.componentFor !== undefined
          ? '--component-for'
          : undefined;
    if (lookup !== undefined && flags.width !== undefined) {
      throw new UsageError(`--width wraps the release listing only; it does not go with ${lookup}`);
    }
    // Checked before the release is read: a mistyped lookup is a usage error whatever the release.
    const imageFor = flags.imageFor?.trim();
    const componentFor = flags.componentFor === undefined ? undefined : componentRef(flags.componentFor);
    const payload = await loadRelease(file, flags);
    // Messages name standard input as its errors do, not by the `-` that was typed.
    const source = file === STDIN ? STDIN_NAME : file;
    let report: ReleaseInfoReport = { payload };
    exit.code = EXIT.ok;
    if (imageFor !== undefined || componentFor !== undefined) {
      const index = new ComponentIndex([payload]);
      if (componentFor !== undefined) refuseAmbiguous(index, componentFor, source);
      const lookup =
        imageFor !== undefined
          ? { by: 'image-for' as const, matches: index.imageFor(imageFor) }
          : { by: 'component-for' as const, matches: index.lookup(componentFor ?? '') };
      report = { payload, lookup };
      for (const m of lookup.by === 'image-for' ? lookup.matches : []) {
        if (m.component.fromKind !== undefined)
          process.stderr.write(
            terminalSafe(
              `atlevel: ${m.component.name} is an ${m.component.fromKind} reference (an image of another image stream), not a pull spec\n`,
            ),
          );
      }
      if (lookup.matches.length === 0) {
        const what =
          imageFor !== undefined ? `no image tag "${imageFor}"` : `no component with image "${componentFor}"`;
        process.stderr.write(
          terminalSafe(
            `atlevel: ${what} in ${payload.version !== undefined ? `release ${payload.version} (${withinParentheses(source)})` : `${source} (it carries no version)`}\n`,
          ),
        );
        exit.code = EXIT.failure;
        // A text answer would be empty; JSON still says what was searched.
        if (flags.output === 'text') return;
      }
    }
    await emit(await render(RELEASE_INFO_FORMATS, flags.output, report, textSettings(flags)), flags.out);
  });
}

/**
 * A release from a file, a folder, a URL, or `-` (standard input: one release file), for `release
 * info|diff` and `diff --release-from|--release-to`; `budget` is the command's, when it has one.
 */
export function loadRelease(
  arg: string,
  flags: RemoteFlags,
  opts: { readonly budget?: Budget } = {},
): Promise<ReleasePayload> {
  return appLoadRelease(arg, { ...opts, remote: () => remoteOptions(flags) });
}

/**
 * `--component-for`'s value without the blanks a copy and paste brings; one too short to be a digest
 * prefix is refused, saying how many digits are needed, rather than looked up and not found.
 */
function componentRef(value: string): string {
  const ref = value.trim();
  if (ref === '') throw new UsageError('--component-for: give a pull spec or a digest, not an empty value');
  const digits = shortDigestPrefix(ref);
  if (digits !== undefined) {
    throw new UsageError(
      `--component-for: "${printable(ref, 80)}" has ${plural(digits, 'hex digit')}; a digest prefix needs at least ` +
        `${MIN_DIGEST_PREFIX}, as atlevel prints them (sha256:0adaefcf3675…), or give the full digest or pull spec`,
    );
  }
  return ref;
}

/** A digest prefix that several images of the payload share is an error naming them. */
function refuseAmbiguous(index: ComponentIndex, ref: string, file: string): void {
  const digests = index.digestsStartingWith(ref);
  if (digests.length < 2) return;
  const named = digests.slice(0, 6).map((d) => {
    const names = [...new Set(index.matchesOfDigest(d).map((m) => m.component.name))].sort();
    return `${names.join('/')} (${d.slice(0, 7 + 16)}…)`;
  });
  throw new UsageError(
    `--component-for: "${printable(ref, 80)}" matches ${digests.length} images in ${printable(file, 200)}: ` +
      `${named.join(', ')}${digests.length > 6 ? ', …' : ''}; give more digits`,
  );
}
