/**
 * `atlevel inputs ARG...`: what each argument is and what atlevel does with it (docs/inputs.md): the
 * layouts found, each file claimed and by which reader and kind, what serve serves as it is, what is
 * ignored and why, and the runs it holds. With --kubeconfig, --context or --live, the live cluster's
 * plan: which resources are listed and watched (only get, list and watch are ever sent).
 * Exit codes: 0 printed, 2 bad input or usage, 3 internal error.
 */
import type { Command } from '@commander-js/extra-typings';
import { planInputs } from '../app/inputs.js';
import { UsageError } from '../model/index.js';
import { INPUTS_FORMATS, render } from '../report/index.js';
import { examplePath } from './examples.js';
import { EXIT, type ExitBox } from './exit.js';
import { readOptions } from './input.js';
import { liveFlags, wantsLive } from './live-flags.js';
import { formatOption, textSettings } from './options.js';
import { emit } from './output.js';
import { mustGatherFlag, remoteFlags } from './remote-flags.js';

export function defineInputs(cmd: Command, exit: ExitBox): void {
  const c = cmd
    .argument(
      '<inputs...>',
      'folders, files, tarballs, CI URLs, - (standard input) or DIR/CASE of oc examples',
    )
    .addOption(formatOption(INPUTS_FORMATS, 'output format (-o json and -o yaml print the same document)'))
    .option('--out <file>', 'write to FILE instead of stdout');
  liveFlags(mustGatherFlag(remoteFlags(c)))
    .addHelpText(
      'after',
      '\nNo file is parsed and no request is sent to a cluster: names, listings and the kubeconfig say it all (a URL is fetched into the cache, as analyze would).\n' +
        'Exit codes: 0 printed, 2 bad input or usage, 3 internal error.\n' +
        `Example: atlevel inputs ${examplePath('bug-2019850')} -o yaml`,
    )
    .action(async (inputs, flags) => {
      // Planning sends no request: a deadline for one would be silently ignored.
      if (flags.requestTimeout !== undefined)
        throw new UsageError('--request-timeout: inputs sends no request to the cluster; drop it');
      const live = wantsLive(flags)
        ? {
            live: {
              ...(flags.kubeconfig !== undefined ? { kubeconfig: flags.kubeconfig } : {}),
              ...(flags.context !== undefined ? { context: flags.context } : {}),
            },
          }
        : undefined;
      const plans = await planInputs({ inputs: inputs ?? [], ...(live ? { live } : {}) }, readOptions(flags));
      await emit(await render(INPUTS_FORMATS, flags.output, plans, textSettings(flags)), flags.out);
      exit.code = EXIT.ok;
    });
}
