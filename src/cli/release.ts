import { type Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../model/errors.js';
import { ComponentIndex } from '../release/components.js';
import { diffReleases } from '../release/diff.js';
import { loadReleasePayload } from '../release/load.js';
import { renderReleaseDiffJson, renderReleaseInfoJson } from '../report/release-json.js';
import {
  renderComponentMatchesText,
  renderReleaseDiffText,
  renderReleaseInfoText,
} from '../report/release-text.js';
import { EXIT, type ExitBox } from './main.js';
import { emit, useColour } from './output.js';

const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

const SOURCES =
  '`oc adm release info -o json` output, an image-references file (JSON or YAML), or a release payload folder';

export function registerRelease(program: Command, exit: ExitBox): void {
  const release = program.command('release').description('release payloads: component diff and lookups');

  release
    .command('diff')
    .description('components added, removed and changed between two releases, and whether nodes will roll')
    .argument('<from>', `release updated from: ${SOURCES}`)
    .argument('<to>', 'release updated to, in any of the same forms')
    .addOption(
      new Option('-o, --output <format>', 'report format').choices(FORMATS).default('text' as Format),
    )
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 same components, 1 components differ, 2 bad input or usage.\n' +
        'Example: atlevel release diff old-release.json new-release.json',
    )
    .action(async (from, to, flags) => {
      const [a, b] = await Promise.all([loadReleasePayload(from), loadReleasePayload(to)]);
      const d = diffReleases(a, b);
      const text =
        flags.output === 'json'
          ? renderReleaseDiffJson(d)
          : renderReleaseDiffText(d, { colour: flags.out === undefined && useColour() });
      await emit(text, flags.out);
      exit.code = d.changed.length + d.added.length + d.removed.length === 0 ? EXIT.ok : EXIT.failure;
    });

  release
    .command('info')
    .description('list a release payload, or look up one component by name or by image')
    .argument('<release>', SOURCES)
    .option(
      '--image-for <name>',
      'print the pull spec of component NAME (like oc adm release info --image-for)',
    )
    .option('--component-for <ref>', 'print the component(s) a digest (sha256:…) or pull spec belongs to')
    .addOption(
      new Option('-o, --output <format>', 'report format').choices(FORMATS).default('text' as Format),
    )
    .option('--out <file>', 'write the report to FILE instead of stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 found, 1 no such component or image in the release, 2 bad input or usage.',
    )
    .action(async (file, flags) => {
      if (flags.imageFor !== undefined && flags.componentFor !== undefined) {
        throw new UsageError('give --image-for or --component-for, not both');
      }
      const payload = await loadReleasePayload(file);
      const json = flags.output === 'json';
      if (flags.imageFor === undefined && flags.componentFor === undefined) {
        const text = json
          ? renderReleaseInfoJson(payload)
          : renderReleaseInfoText(payload, { colour: flags.out === undefined && useColour() });
        await emit(text, flags.out);
        exit.code = EXIT.ok;
        return;
      }
      const index = new ComponentIndex([payload]);
      const query = (flags.imageFor ?? flags.componentFor) as string;
      const matches = flags.imageFor !== undefined ? index.imageFor(query) : index.lookup(query);
      if (matches.length === 0) {
        const what =
          flags.imageFor !== undefined ? `no image tag "${query}"` : `no component with image "${query}"`;
        process.stderr.write(`atlevel: ${what} in release ${payload.version} (${file})\n`);
        if (json) await emit(renderReleaseInfoJson(payload, []), flags.out);
        exit.code = EXIT.failure;
        return;
      }
      const text = json
        ? renderReleaseInfoJson(payload, matches)
        : flags.imageFor !== undefined
          ? matches.map((m) => `${m.component.pullSpec}\n`).join('')
          : renderComponentMatchesText(matches);
      await emit(text, flags.out);
      exit.code = EXIT.ok;
    });
}
