/**
 * The warning for a --release-from/--release-to file that is not the release it should be (analyze:
 * the update's; diff: the one its config was rendered for). analyze and diff say it in the same words:
 * the flag, the file, what is wrong, and which release among the inputs is used instead, if one is.
 */
import { printable, type ReleasePayload } from '../model/index.js';

export function warnReleaseFlag(
  slot: 'from' | 'to',
  file: string,
  problem: string,
  usedInstead: ReleasePayload | undefined,
): void {
  const instead = usedInstead
    ? `; it is not used: ${printable(usedInstead.ref.file, 300)} among the inputs, release ${printable(usedInstead.version ?? '')}, is used instead`
    : '';
  process.stderr.write(`atlevel: warning: --release-${slot} ${printable(file, 300)} ${problem}${instead}\n`);
}
