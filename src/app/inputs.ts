/**
 * `atlevel inputs`: each argument's plan (sources' planInput), in argument order, and the live
 * cluster's when one is named. Nothing is read beyond names and listings: no file is parsed, and no
 * request is sent to a cluster.
 */
import { type InputPlan, UsageError } from '../model/index.js';
import { type LiveCluster, looksLikeUrl, planInput } from '../sources/index.js';
import type { ReadOptions } from './read.js';

export interface InputsRequest {
  /** Paths, `-`, URLs and oc examples case prefixes. */
  readonly inputs: readonly string[];
  /** A live cluster to plan as well (`--kubeconfig`, `--context`, `--live`). */
  readonly live?: LiveCluster;
}

export async function planInputs(request: InputsRequest, read: ReadOptions = {}): Promise<InputPlan[]> {
  if (request.inputs.length === 0 && request.live === undefined)
    throw new UsageError('no input given: name a folder, file, tarball, URL, - or --kubeconfig FILE');
  if (request.inputs.filter((i) => i === '-').length > 1)
    throw new UsageError('- (standard input) is given more than once: there is one standard input');
  // URL inputs are fetched into the cache as analyze fetches them, to list what they hold.
  const remote = request.inputs.some(looksLikeUrl)
    ? typeof read.remote === 'function'
      ? await read.remote()
      : read.remote
    : undefined;
  const plans: InputPlan[] = [];
  for (const input of request.inputs) plans.push(await planInput(input, remote ? { remote } : {}));
  if (request.live) plans.push(await planInput(request.live));
  return plans;
}
