/**
 * Which cluster, and as whom: a KubeConfig loaded the way kubectl loads one (docs/live.md): the
 * `--kubeconfig` file, else `$KUBECONFIG` (a list of files, merged), else `~/.kube/config`, else the
 * in-cluster service account; `--context` picks a context. The files are read, merged and their paths
 * resolved here, by kubectl's rules; authentication (client certificates, bearer tokens) is then
 * @kubernetes/client-node's, the same mechanisms kubectl implements; exec credential plugins are run
 * and their output checked by exec.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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
type KubeConfig = import('@kubernetes/client-node').KubeConfig;

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

type Mapping = Record<string, unknown>;

/** A file a cluster or user entry names, as written and as resolved against its kubeconfig's folder. */
interface FileRef {
  readonly field: string;
  readonly written: string;
  readonly path: string;
}

/** A cluster or user entry as its kubeconfig file holds it (paths resolved), and that file. */
interface Source {
  readonly file: string;
  readonly body: Mapping;
  readonly refs: readonly FileRef[];
}

/** The entries of the merged files, by name, each from the first file to define it. */
interface Sources {
  readonly clusters: Map<string, Source>;
  readonly users: Map<string, Source>;
}

export async function loadKubeConfig(
  flags: KubeConfigFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedConfig> {
  const k8s = await clientNode();
  const kc = new k8s.KubeConfig();
  let origin: string;
  let sources: Sources | undefined;
  try {
    if (flags.kubeconfig !== undefined) {
      origin = flags.kubeconfig;
      if (!existsSync(flags.kubeconfig)) {
        throw new InputError(flags.kubeconfig, 'no such kubeconfig file', 'give the path of a kubeconfig');
      }
      sources = loadFiles(k8s, kc, [flags.kubeconfig]);
    } else if (env.KUBECONFIG !== undefined && env.KUBECONFIG !== '') {
      origin = '$KUBECONFIG';
      // kubectl's list: `:`-separated, each file once, the missing ones skipped (client-go
      // tools/clientcmd/loader.go, NewDefaultClientConfigLoadingRules and Load).
      const files = [...new Set(env.KUBECONFIG.split(':'))].filter((f) => f !== '' && existsSync(f));
      if (files.length === 0) {
        throw new InputError(env.KUBECONFIG, 'none of the files $KUBECONFIG names exists', 'fix KUBECONFIG');
      }
      sources = loadFiles(k8s, kc, files);
    } else if (existsSync(join(env.HOME ?? homedir(), '.kube', 'config'))) {
      origin = join(env.HOME ?? homedir(), '.kube', 'config');
      sources = loadFiles(k8s, kc, [origin]);
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
  const clusterSource = sources?.clusters.get(cluster.name);
  const userName = kc.getCurrentUser()?.name;
  const userSource = userName === undefined ? undefined : sources?.users.get(userName);
  // Only the entries the current context uses are held to their files, as kubectl's ConfirmUsable
  // checks only those (client-go tools/clientcmd/validation.go): another user's stale path is no error.
  if (clusterSource) checkRefs(clusterSource, `cluster ${JSON.stringify(cluster.name)}`);
  if (userSource) {
    checkRefs(userSource, `user ${JSON.stringify(userName)}`);
    setTokenFromFile(kc, userSource, userName as string);
  }
  const exec = takeExecPlugin(kc, origin, userSource, clusterSource);
  return {
    kc,
    origin,
    context: kc.getCurrentContext(),
    server: cluster.server.replace(/\/+$/, ''),
    ...(exec ? { exec } : {}),
  };
}

/**
 * The files merged as kubectl merges them (client-go tools/clientcmd/loader.go, Load): a cluster,
 * user or context name is taken from the first file that defines it, whole, and current-context from
 * the first file that sets one. Each file's relative paths are first resolved against its own folder.
 */
function loadFiles(k8s: ClientNode, kc: KubeConfig, files: readonly string[]): Sources {
  const sources: Sources = { clusters: new Map(), users: new Map() };
  const clusters: KubeConfig['clusters'] = [];
  const users: KubeConfig['users'] = [];
  const contexts: KubeConfig['contexts'] = [];
  let currentContext: string | undefined;
  for (const file of files) {
    const doc = readKubeconfigFile(file) as { clusters?: unknown; users?: unknown };
    const dir = dirname(resolve(file));
    const rawClusters = entries(doc.clusters, 'cluster');
    const rawUsers = entries(doc.users, 'user');
    for (const c of rawClusters) c.refs = resolvePaths(c.body, CLUSTER_FILE_FIELDS, dir);
    for (const u of rawUsers) {
      u.refs = resolvePaths(u.body, USER_FILE_FIELDS, dir);
      // exec.command is a path only when it holds a separator; a bare name is looked up on PATH.
      const exec = u.body.exec as Mapping | null | undefined;
      if (
        exec &&
        typeof exec === 'object' &&
        typeof exec.command === 'string' &&
        exec.command.includes('/')
      ) {
        exec.command = absolute(dir, exec.command);
      }
    }
    // The library parses the entries (names, servers, certificates). It is not given the token
    // files: it would read every user's at once, relative to the working directory (tokenFile is
    // read below, for the current user only).
    const one = new k8s.KubeConfig();
    try {
      one.loadFromString(JSON.stringify({ ...doc, users: withoutTokenFiles(doc.users) }));
    } catch (err) {
      throw new InputError(
        file,
        `cannot read the kubeconfig (${(err as Error).message.split('\n')[0]})`,
        'check that it is a kubeconfig YAML file',
      );
    }
    for (const c of one.clusters) {
      if (clusters.some((k) => k.name === c.name)) continue;
      clusters.push(c);
      const raw = rawClusters.find((r) => r.name === c.name);
      if (raw) sources.clusters.set(c.name, { file, body: raw.body, refs: raw.refs });
    }
    for (const u of one.users) {
      if (users.some((k) => k.name === u.name)) continue;
      users.push(u);
      const raw = rawUsers.find((r) => r.name === u.name);
      if (raw) sources.users.set(u.name, { file, body: raw.body, refs: raw.refs });
    }
    for (const c of one.contexts) if (!contexts.some((k) => k.name === c.name)) contexts.push(c);
    if (!currentContext && one.currentContext) currentContext = one.currentContext;
  }
  kc.loadFromOptions({ clusters, users, contexts, currentContext });
  return sources;
}

/**
 * The paths a kubeconfig entry holds, resolved against its file's folder when relative: the fields of
 * client-go's GetClusterFileReferences and GetAuthInfoFileReferences (tools/clientcmd/loader.go), and
 * exec.command when it holds a separator (above). `token-file` is the client library's own spelling of
 * tokenFile, honoured as it was.
 */
const CLUSTER_FILE_FIELDS = ['certificate-authority'];
const USER_FILE_FIELDS = ['client-certificate', 'client-key', 'tokenFile', 'token-file'];

const absolute = (dir: string, path: string): string => (isAbsolute(path) ? path : join(dir, path));

function resolvePaths(body: Mapping, fields: readonly string[], dir: string): FileRef[] {
  const refs: FileRef[] = [];
  for (const field of fields) {
    const written = body[field];
    if (typeof written !== 'string' || written === '') continue;
    const path = absolute(dir, written);
    body[field] = path;
    refs.push({ field, written, path });
  }
  return refs;
}

/** A list's entries with a body (their `cluster` or `user` mapping, not a copy), and their names. */
function entries(list: unknown, key: string): { name: unknown; body: Mapping; refs: FileRef[] }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const e = entry as Mapping;
    const body = e[key];
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
    // Not copied: its paths are resolved in place, so the document given to the library holds them.
    return [{ name: e.name, body: body as Mapping, refs: [] }];
  });
}

function withoutTokenFiles(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((entry: unknown) => {
    const user = (entry as Mapping | null)?.user;
    if (user === null || typeof user !== 'object' || Array.isArray(user)) return entry;
    const { tokenFile: _a, 'token-file': _b, ...rest } = user as Mapping;
    return { ...(entry as Mapping), user: rest };
  });
}

/** A kubeconfig, a certificate or a token is a few KiB; this bounds what a wrong path makes us read. */
const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Why a file the client library would read is not one it can read: missing, not a regular file (a
 * device such as `/dev/zero` or a FIFO would be read without end, or block forever, inside the
 * library) or larger than any such file; undefined when it is fine.
 */
function fileProblem(path: string, what: string): string | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile()) return 'is not a regular file';
    if (info.size > MAX_CONFIG_FILE_BYTES) return `is ${info.size} bytes, more than a ${what} holds`;
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
  }
}

/** A kubeconfig file's document: regular, bounded, and a YAML mapping (an empty file is not a kubeconfig). */
function readKubeconfigFile(path: string): object {
  const problem = fileProblem(path, 'kubeconfig');
  if (problem !== undefined) {
    throw new InputError(path, `the kubeconfig ${problem}`, 'name a regular file');
  }
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
  return doc;
}

const WHAT = new Map<string, string>([
  ['certificate-authority', 'certificate'],
  ['client-certificate', 'certificate'],
  ['client-key', 'key'],
  ['tokenFile', 'token file'],
  ['token-file', 'token file'],
]);

/**
 * The files an entry names, held to what the client library can read: one line naming the kubeconfig
 * file, the entry and the path (as written, and as resolved when it was relative).
 */
function checkRefs(source: Source, entry: string): void {
  for (const ref of source.refs) {
    const problem = fileProblem(ref.path, WHAT.get(ref.field) ?? 'file');
    if (problem === undefined) continue;
    const relative = ref.written !== ref.path;
    throw new InputError(
      source.file,
      `${entry}: ${ref.field} ${relative ? `${ref.written} (${ref.path})` : ref.path} ${problem}`,
      relative
        ? "a relative path in a kubeconfig is resolved against the kubeconfig's folder; fix the path"
        : 'fix the path in the kubeconfig',
    );
  }
}

/**
 * The current user's token file, read as client-go reads it (tools/clientcmd/client_config.go, and
 * transport's file token source, which trims it): a token written in the kubeconfig wins.
 */
function setTokenFromFile(kc: KubeConfig, source: Source, name: string): void {
  const body = source.body;
  if (typeof body.token === 'string' && body.token !== '') return;
  const ref =
    source.refs.find((r) => r.field === 'tokenFile') ?? source.refs.find((r) => r.field === 'token-file');
  if (!ref) return;
  const token = readFileSync(ref.path, 'utf8').trim();
  if (token === '') {
    throw new InputError(
      source.file,
      `user ${JSON.stringify(name)}: ${ref.field} ${ref.path} is empty`,
      'it must hold a bearer token',
    );
  }
  kc.users = kc.users.map((u) => (u.name === name ? { ...u, token } : u));
}

/**
 * The current user's exec plugin, checked, and every user's exec stanza taken out of `kc`, so that
 * client-node's ExecAuth (which would match a user by `exec`, or by an `auth-provider` named exec or
 * holding `config.exec`) never runs a plugin itself: it does not check what the plugin prints.
 */
function takeExecPlugin(
  kc: KubeConfig,
  origin: string,
  userSource: Source | undefined,
  clusterSource: Source | undefined,
): ExecPlugin | undefined {
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
    // A user with its own credential (a token, a token file, a username, or a client certificate
    // and key) never runs its plugin in client-go (plugin/pkg/client/auth/exec/exec.go,
    // UpdateTransportConfig): a plugin that would fail then fails nothing.
    const ownCredential =
      Boolean(user.token) ||
      Boolean(user.username) ||
      (Boolean(user.certFile ?? user.certData) && Boolean(user.keyFile ?? user.keyData));
    if (user.name === current && !ownCredential) {
      const where = { origin: userSource?.file ?? origin, user: user.name };
      const exec = parseExecConfig(user.exec ?? provider?.config?.exec, where);
      const cluster = exec.provideClusterInfo && clusterSource ? execClusterInfo(clusterSource) : undefined;
      plugin = new ExecPlugin(exec, where, cluster);
    }
    return { ...user, exec: undefined, ...(providerExec ? { authProvider: undefined } : {}) };
  });
  return plugin;
}

/**
 * What a plugin with provideClusterInfo is told of the cluster, in KUBERNETES_EXEC_INFO's
 * spec.cluster: client-go's fields and order (rest/exec.go, ConfigToExecCluster; the
 * client.authentication.k8s.io Cluster type), the CA as data even when the kubeconfig names a file,
 * and the cluster's `client.authentication.k8s.io/exec` extension as `config`.
 */
function execClusterInfo(source: Source): Mapping {
  const c = source.body;
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const info: Mapping = { server: c.server };
  if (text(c['tls-server-name'])) info['tls-server-name'] = c['tls-server-name'];
  if (c['insecure-skip-tls-verify'] === true) info['insecure-skip-tls-verify'] = true;
  const caData = text(c['certificate-authority-data']);
  const caFile = text(c['certificate-authority']);
  if (caData !== undefined)
    info['certificate-authority-data'] = Buffer.from(caData, 'base64').toString('base64');
  else if (caFile !== undefined) info['certificate-authority-data'] = readFileSync(caFile).toString('base64');
  if (text(c['proxy-url'])) info['proxy-url'] = c['proxy-url'];
  if (c['disable-compression'] === true) info['disable-compression'] = true;
  const extension = Array.isArray(c.extensions)
    ? (c.extensions as unknown[]).find(
        (e) => (e as Mapping | null)?.name === 'client.authentication.k8s.io/exec',
      )
    : undefined;
  const config = (extension as Mapping | undefined)?.extension;
  if (config !== undefined && config !== null) info.config = config;
  return info;
}
