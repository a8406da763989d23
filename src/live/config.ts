/**
 * Which cluster, and as whom: a KubeConfig loaded the way kubectl loads one (docs/live.md): the
 * `--kubeconfig` file, else `$KUBECONFIG` (a list of files, merged), else `~/.kube/config`, else the
 * in-cluster service account; `--context` picks a context. Authentication (client certificates,
 * bearer tokens, token files) is @kubernetes/client-node's, the same mechanisms kubectl implements;
 * exec credential plugins are run and their output checked by exec.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { InputError, UsageError } from '../model/index.js';
import { ExecPlugin, parseExecConfig } from './exec.js';

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
  /**
   * TLS settings, certificates and tokens, for `applyToHTTPSOptions`. Its users hold no exec plugin:
   * that is `exec`, run by atlevel (exec.ts), so the client library never runs one unchecked.
   */
  readonly kc: KubeConfig;
  /** The current user's exec credential plugin, if it has one. */
  readonly exec?: ExecPlugin;
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
      loadChecked(kc, flags.kubeconfig);
    } else if (env.KUBECONFIG !== undefined && env.KUBECONFIG !== '') {
      origin = '$KUBECONFIG';
      const files = env.KUBECONFIG.split(':').filter((f) => f !== '' && existsSync(f));
      if (files.length === 0) {
        throw new InputError(env.KUBECONFIG, 'none of the files $KUBECONFIG names exists', 'fix KUBECONFIG');
      }
      for (const file of files) readKubeconfigFile(file);
      // kubectl merges the files; the first to set a field wins (client-node's loadFromDefault).
      kc.loadFromDefault({}, false);
    } else if (existsSync(join(env.HOME ?? homedir(), '.kube', 'config'))) {
      origin = join(env.HOME ?? homedir(), '.kube', 'config');
      loadChecked(kc, origin);
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
  const exec = takeExecPlugin(kc, origin);
  return {
    kc,
    origin,
    context: kc.getCurrentContext(),
    server: cluster.server.replace(/\/+$/, ''),
    ...(exec ? { exec } : {}),
  };
}

/**
 * The current user's exec plugin, checked, and every user's exec stanza taken out of `kc`, so that
 * client-node's ExecAuth (which would match a user by `exec`, or by an `auth-provider` named exec or
 * holding `config.exec`) never runs a plugin itself: it does not check what the plugin prints.
 */
function takeExecPlugin(kc: KubeConfig, origin: string): ExecPlugin | undefined {
  const current = kc.getCurrentUser()?.name;
  let plugin: ExecPlugin | undefined;
  kc.users = kc.users.map((user) => {
    const provider = user.authProvider as { name?: unknown; config?: { exec?: unknown } } | null | undefined;
    // Azure and GCP providers are the library's own, matched before ExecAuth: left to it.
    const providerExec =
      provider &&
      provider.name !== 'azure' &&
      provider.name !== 'gcp' &&
      (provider.name === 'exec' || (provider.config?.exec !== undefined && provider.config.exec !== null));
    if (!user.exec && !providerExec) return user;
    if (user.name === current) {
      const where = { origin, user: user.name };
      plugin = new ExecPlugin(parseExecConfig(user.exec ?? provider?.config?.exec, where), where);
    }
    return { ...user, exec: undefined, ...(providerExec ? { authProvider: undefined } : {}) };
  });
  return plugin;
}

/** A kubeconfig, a certificate or a token is a few KiB; this bounds what a wrong path makes us read. */
const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

/**
 * A file the client library would read: a regular file of a sane size. A device (`/dev/zero`) or a
 * FIFO would otherwise be read without end, or block forever, inside the library.
 */
function assertRegularFile(path: string, what: string): void {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) {
      throw new InputError(path, `the ${what} is not a regular file`, 'name a regular file');
    }
    size = info.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(path, `cannot read the ${what} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > MAX_CONFIG_FILE_BYTES) {
    throw new InputError(
      path,
      `the ${what} is ${size} bytes, more than a ${what} holds`,
      'name a regular file',
    );
  }
}

/** A kubeconfig file's text: regular, bounded, and a YAML mapping (an empty file is not a kubeconfig). */
function readKubeconfigFile(path: string): string {
  assertRegularFile(path, 'kubeconfig');
  const text = readFileSync(path, 'utf8');
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    throw new InputError(path, 'the kubeconfig is not valid YAML', 'check that it is a kubeconfig YAML file');
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new InputError(
      path,
      'not a kubeconfig: it holds no clusters, users or contexts',
      'check that it is a kubeconfig YAML file',
    );
  }
  assertReferencedFiles(doc, path);
  return text;
}

/**
 * loadFromFile on the text already checked, not on the path again: the file read is the file
 * checked. Relative paths inside it are made absolute from its folder, as loadFromFile does.
 */
function loadChecked(kc: KubeConfig, path: string): void {
  kc.loadFromString(readKubeconfigFile(path));
  kc.makePathsAbsolute(dirname(resolve(path)));
}

/**
 * The files a kubeconfig points at (CA, client certificate and key, token file), relative to its
 * folder as kubectl reads them, held to the same: the client library reads a token file as it loads.
 */
function assertReferencedFiles(doc: object, path: string): void {
  const named = (list: unknown, key: string): Record<string, unknown>[] =>
    Array.isArray(list)
      ? list
          .map((entry) => (entry as Record<string, unknown> | null)?.[key])
          .filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object')
      : [];
  const d = doc as { clusters?: unknown; users?: unknown };
  const refs: [unknown, string][] = [];
  for (const c of named(d.clusters, 'cluster'))
    refs.push([c['certificate-authority'], 'certificate authority file']);
  for (const u of named(d.users, 'user')) {
    refs.push([u['client-certificate'], 'client certificate file']);
    refs.push([u['client-key'], 'client key file']);
    refs.push([u['token-file'], 'token file']);
  }
  for (const [file, what] of refs) {
    if (typeof file === 'string' && file !== '') assertRegularFile(resolve(dirname(path), file), what);
  }
}
