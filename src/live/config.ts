/**
 * Which cluster, and as whom: a KubeConfig loaded the way kubectl loads one (docs/live.md): the
 * `--kubeconfig` file, else `$KUBECONFIG` (a list of files, merged), else `~/.kube/config`, else the
 * in-cluster service account; `--context` picks a context. Authentication (client certificates,
 * bearer tokens, token files, exec credential plugins) is @kubernetes/client-node's, the same
 * mechanisms kubectl implements.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InputError, UsageError } from '../model/index.js';

export interface KubeConfigFlags {
  /** `--kubeconfig FILE`. */
  readonly kubeconfig?: string | undefined;
  /** `--context NAME`. */
  readonly context?: string | undefined;
}

/** The client library, loaded only by live commands (it costs ~0.6 s to import). */
type ClientNode = typeof import('@kubernetes/client-node');
export type KubeConfig = import('@kubernetes/client-node').KubeConfig;

async function clientNode(): Promise<ClientNode> {
  return import('@kubernetes/client-node');
}

export interface LoadedConfig {
  readonly kc: KubeConfig;
  /** Where it came from, for messages and the report's inputs: a file, `$KUBECONFIG`, `in-cluster`. */
  readonly origin: string;
  readonly context: string;
  readonly server: string;
}

const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

export async function loadKubeConfig(
  flags: KubeConfigFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedConfig> {
  const k8s = await clientNode();
  const kc = new k8s.KubeConfig();
  let origin: string;
  try {
    if (flags.kubeconfig !== undefined) {
      origin = flags.kubeconfig;
      if (!existsSync(flags.kubeconfig)) {
        throw new InputError(flags.kubeconfig, 'no such kubeconfig file', 'give the path of a kubeconfig');
      }
      kc.loadFromFile(flags.kubeconfig);
    } else if (env.KUBECONFIG !== undefined && env.KUBECONFIG !== '') {
      origin = '$KUBECONFIG';
      const files = env.KUBECONFIG.split(':').filter((f) => f !== '' && existsSync(f));
      if (files.length === 0) {
        throw new InputError(env.KUBECONFIG, 'none of the files $KUBECONFIG names exists', 'fix KUBECONFIG');
      }
      // kubectl merges the files; the first to set a field wins (client-node's loadFromDefault).
      kc.loadFromDefault({}, false);
    } else if (existsSync(join(env.HOME ?? homedir(), '.kube', 'config'))) {
      origin = join(env.HOME ?? homedir(), '.kube', 'config');
      kc.loadFromFile(origin);
    } else if (env.KUBERNETES_SERVICE_HOST !== undefined && existsSync(IN_CLUSTER_TOKEN)) {
      origin = 'in-cluster';
      kc.loadFromCluster();
    } else {
      throw new UsageError(
        'no kubeconfig: give --kubeconfig FILE, set KUBECONFIG, or create ~/.kube/config (or run in a pod)',
      );
    }
  } catch (err) {
    if (err instanceof InputError || err instanceof UsageError) throw err;
    throw new InputError(
      flags.kubeconfig ?? env.KUBECONFIG ?? '~/.kube/config',
      `cannot read the kubeconfig (${(err as Error).message.split('\n')[0]})`,
      'check that it is a kubeconfig YAML file',
    );
  }
  if (flags.context !== undefined) {
    if (!kc.getContexts().some((c) => c.name === flags.context)) {
      const known = kc
        .getContexts()
        .map((c) => c.name)
        .join(', ');
      throw new InputError(
        origin,
        `no context named ${JSON.stringify(flags.context)}`,
        `known: ${known || 'none'}`,
      );
    }
    kc.setCurrentContext(flags.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new InputError(
      origin,
      'the current context names no cluster',
      'give --context, or fix current-context',
    );
  }
  return { kc, origin, context: kc.getCurrentContext(), server: cluster.server.replace(/\/+$/, '') };
}
