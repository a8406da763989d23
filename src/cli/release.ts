/** `atlevel release diff|info`: release payloads compared, listed and searched. */
import type { Command } from '@commander-js/extra-typings';
import { diffReleaseFiles, type ReleaseInfoRequest, releaseInfo } from '../app/release.js';
import { plural, printable, terminalSafe, UsageError } from '../model/index.js';
import { MIN_DIGEST_PREFIX, shortDigestPrefix } from '../release/index.js';
import { RELEASE_DIFF_FORMATS, RELEASE_INFO_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { type ExitBox, exitOf } from './exit.js';
import { formatOption, textOnly, textSettings, widthOption } from './options.js';
import { emit } from './output.js';
import { remoteFlags, remoteOptions } from './remote-flags.js';
import { stdinOnce } from './stdin.js';

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
    const outcome = await diffReleaseFiles({ from, to }, { remote: () => remoteOptions(flags) });
    await emit(
      await render(RELEASE_DIFF_FORMATS, flags.output, outcome.diff, textSettings(flags)),
      flags.out,
    );
    exit.code = exitOf(outcome.conclusion);
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
    const request: ReleaseInfoRequest = {
      release: file,
      ...(imageFor !== undefined
        ? { lookup: { by: 'image-for', name: imageFor } }
        : componentFor !== undefined
          ? { lookup: { by: 'component-for', ref: componentFor } }
          : {}),
    };
    const outcome = await releaseInfo(request, { remote: () => remoteOptions(flags) });
    for (const warning of outcome.warnings) process.stderr.write(terminalSafe(`atlevel: ${warning}\n`));
    exit.code = exitOf(outcome.conclusion);
    // Nothing found: a text answer would be empty; JSON still says what was searched.
    if (outcome.conclusion !== 'ok' && flags.output === 'text') return;
    await emit(
      await render(RELEASE_INFO_FORMATS, flags.output, outcome.report, textSettings(flags)),
      flags.out,
    );
  });
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
