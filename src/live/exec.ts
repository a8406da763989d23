/**
 * Exec credential plugins (`users[].user.exec`, client.authentication.k8s.io ExecCredential), run here
 * rather than by @kubernetes/client-node 1.4.0's ExecAuth: ExecAuth reads `status.token` from whatever
 * the plugin printed without looking at it, so a plugin printing `{}` surfaced as "Cannot read
 * properties of undefined", one printing `null` or `{"status": {}}` sent the requests with no
 * credentials at all, a failed plugin was its raw stderr (or nothing), and one printing no
 * expirationTimestamp was run again for every request. The plugin's output is untrusted input, so it
 * is checked at this edge, and every way it can fail is one line naming the kubeconfig, the user and
 * the plugin. Never echoed: what the plugin printed (a token is a secret).
 */
import { spawn } from 'node:child_process';
import { InputError, printable } from '../model/index.js';

/** The exec stanza of a kubeconfig user, checked. */
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  /** Whether the plugin is given the terminal: kubectl's three modes. */
  readonly interactiveMode: InteractiveMode;
  /** Whether KUBERNETES_EXEC_INFO tells the plugin about the cluster (spec.cluster). */
  readonly provideClusterInfo: boolean;
}

type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';
const INTERACTIVE_MODES: readonly string[] = ['Never', 'IfAvailable', 'Always'];

/** What the plugin gave, checked: a bearer token, a client certificate and key, or both. */
export interface ExecCredential {
  readonly token?: string;
  readonly cert?: string;
  readonly key?: string;
  /** Milliseconds since the epoch; absent: valid for the whole run, as kubectl keeps it. */
  readonly expiresAt?: number;
}

/** Where a plugin is named, for messages: the kubeconfig file that holds the user, and the user. */
export interface ExecWhere {
  readonly origin: string;
  readonly user: string;
}

/** An ExecCredential is a few KiB (a certificate chain at most); a plugin printing more is broken. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * The exec stanza as the kubeconfig holds it, checked (kubectl's fields: command, args, env,
 * apiVersion); a kubeconfig is the user's file, so a wrong stanza is an input error at load, not a
 * failure at the first request.
 */
export function parseExecConfig(raw: unknown, where: ExecWhere): ExecConfig {
  const bad = (problem: string) =>
    new InputError(where.origin, `user ${JSON.stringify(where.user)}: ${problem}`, 'fix the kubeconfig');
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad('exec is not a mapping');
  const e = raw as Record<string, unknown>;
  if (typeof e.command !== 'string' || e.command === '') throw bad('exec.command is missing');
  const args = e.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw bad('exec.args is not a list of strings');
  }
  const env = e.env ?? [];
  if (
    !Array.isArray(env) ||
    !env.every(
      (v) =>
        v !== null &&
        typeof v === 'object' &&
        typeof (v as { name?: unknown }).name === 'string' &&
        typeof (v as { value?: unknown }).value === 'string',
    )
  ) {
    throw bad('exec.env is not a list of {name, value} strings');
  }
  // kubectl requires it; client-node never did, so a kubeconfig without one keeps working, as v1.
  const apiVersion = typeof e.apiVersion === 'string' && e.apiVersion !== '' ? e.apiVersion : DEFAULT_API;
  // kubectl refuses a value other than its three (client-go tools/clientcmd/validation.go); without
  // one it takes IfAvailable for v1beta1 and refuses v1: it is taken as IfAvailable here for both, as a
  // missing apiVersion is taken as v1 above, so a kubeconfig client-node read keeps working.
  const mode = e.interactiveMode ?? 'IfAvailable';
  if (typeof mode !== 'string' || !INTERACTIVE_MODES.includes(mode)) {
    throw bad('exec.interactiveMode is not Never, IfAvailable or Always');
  }
  const provide = e.provideClusterInfo ?? false;
  if (typeof provide !== 'boolean') throw bad('exec.provideClusterInfo is not true or false');
  return {
    command: e.command,
    args: args as string[],
    env: env as ExecConfig['env'],
    apiVersion,
    interactiveMode: mode as InteractiveMode,
    provideClusterInfo: provide,
  };
}

const DEFAULT_API = 'client.authentication.k8s.io/v1';

/** One user's plugin: run when a credential is needed, its credential kept until it expires. */
export class ExecPlugin {
  #held: ExecCredential | undefined;
  #running: Promise<ExecCredential> | undefined;

  /**
   * `cluster`: spec.cluster of KUBERNETES_EXEC_INFO, when the stanza sets provideClusterInfo
   * (config.ts makes it, as client-go's rest/exec.go does).
   */
  constructor(
    readonly exec: ExecConfig,
    readonly where: ExecWhere,
    readonly cluster?: Readonly<Record<string, unknown>>,
  ) {}

  /** A valid credential: the one held, or the plugin's next (one run at a time for all requests). */
  async credential(): Promise<ExecCredential> {
    const held = this.#held;
    if (held && (held.expiresAt === undefined || Date.now() < held.expiresAt)) return held;
    this.#running ??= runPlugin(this.exec, this.where, this.cluster).finally(() => {
      this.#running = undefined;
    });
    this.#held = await this.#running;
    return this.#held;
  }
}

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Whether the plugin gets the terminal, by client-go's rule (plugin/pkg/client/auth/exec/exec.go,
 * isInteractive): never for Never; for IfAvailable when standard input is a terminal; for Always
 * when it is one, and otherwise the plugin is not run.
 */
function isInteractive(mode: InteractiveMode, stdinIsTerminal: boolean): boolean | 'no terminal' {
  if (mode === 'Never') return false;
  if (mode === 'IfAvailable') return stdinIsTerminal;
  return stdinIsTerminal || 'no terminal';
}

/**
 * One run of the plugin, as client-go runs it (plugin/pkg/client/auth/exec/exec.go,
 * refreshCredsLocked): `command` (already resolved against the kubeconfig's folder when it is a path,
 * config.ts) with `args`, `env` over atlevel's environment, and KUBERNETES_EXEC_INFO. Interactive,
 * the plugin has the terminal's standard input and standard error, to prompt; otherwise its standard
 * input is empty (a plugin that reads it gets end-of-file, it cannot hang on it) and its standard
 * error is kept for the one line that says why it failed. No time limit: client-go sets none, so a
 * plugin that never exits hangs kubectl too; one may be waiting for its user (a browser login), and
 * Ctrl-C stops both.
 */
async function runPlugin(
  exec: ExecConfig,
  where: ExecWhere,
  cluster: Readonly<Record<string, unknown>> | undefined,
): Promise<ExecCredential> {
  const name = `exec plugin ${printable(exec.command, 100)}`;
  const fail = (problem: string, hint?: string) =>
    new InputError(where.origin, `user ${JSON.stringify(where.user)}: ${name} ${problem}`, hint);
  const interactive = isInteractive(exec.interactiveMode, process.stdin.isTTY === true);
  if (interactive === 'no terminal') {
    throw fail(
      'needs a terminal (interactiveMode: Always), and standard input is not one',
      'run atlevel in a terminal',
    );
  }
  const outcome = await new Promise<Outcome>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const v of exec.env) env[v.name] = v.value;
    // What kubectl tells a plugin, in its order: the cluster only when provideClusterInfo is set.
    env.KUBERNETES_EXEC_INFO = JSON.stringify({
      kind: 'ExecCredential',
      apiVersion: exec.apiVersion,
      spec: { ...(exec.provideClusterInfo && cluster ? { cluster } : {}), interactive },
    });
    const child = spawn(exec.command, [...exec.args], {
      env,
      stdio: interactive ? ['inherit', 'pipe', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let tooMuch = false;
    child.stdout?.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > MAX_OUTPUT_BYTES) {
        tooMuch = true;
        child.kill('SIGKILL');
      } else out.push(c);
    });
    child.stderr?.on('data', (c: Buffer) => {
      // Only its last line is shown; the rest need not be kept without bound.
      errBytes += c.length;
      err.push(c);
      while (errBytes > 64 * 1024 && err.length > 1) errBytes -= (err.shift() as Buffer).length;
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      const why =
        e.code === 'ENOENT'
          ? 'not found'
          : e.code === 'EACCES'
            ? 'permission denied'
            : printable(e.code ?? e.message, 80);
      reject(
        fail(
          `cannot be run (${why})`,
          exec.command.includes('/')
            ? "check exec.command in the kubeconfig; a relative path is resolved against the kubeconfig's folder"
            : 'check exec.command in the kubeconfig, and PATH',
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (tooMuch) {
        reject(fail('printed more than 1 MiB', 'it must print one ExecCredential'));
        return;
      }
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
  if (outcome.code !== 0) {
    const last = outcome.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .at(-1);
    const how =
      outcome.code === null
        ? `was killed by ${outcome.signal ?? 'a signal'}`
        : `exited with status ${outcome.code}`;
    // Interactive, its standard error went to the terminal, where the user has read it.
    if (interactive) throw fail(how, 'what it printed on standard error is above');
    throw fail(last === undefined ? `${how}, printing nothing on stderr` : `${how}: ${printable(last, 200)}`);
  }
  return parseCredential(outcome.stdout, fail);
}

const SHAPE_HINT = 'it must print a client.authentication.k8s.io ExecCredential on standard output';

/** The plugin's standard output as an ExecCredential, or the one thing wrong with it. */
function parseCredential(
  stdout: string,
  fail: (problem: string, hint?: string) => InputError,
): ExecCredential {
  if (stdout.trim() === '') throw fail('printed nothing', SHAPE_HINT);
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    // The parser's message quotes the output, which may hold a secret: say only what is wrong.
    throw fail('printed something that is not JSON', SHAPE_HINT);
  }
  const status =
    doc !== null && typeof doc === 'object' && !Array.isArray(doc)
      ? (doc as { status?: unknown }).status
      : undefined;
  const s = status !== null && typeof status === 'object' && !Array.isArray(status) ? status : {};
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const { token, clientCertificateData, clientKeyData, expirationTimestamp } = s as Record<string, unknown>;
  const cert = text(clientCertificateData);
  const key = text(clientKeyData);
  if (text(token) === undefined && cert === undefined && key === undefined) {
    throw fail('printed no status.token or clientCertificateData/clientKeyData', SHAPE_HINT);
  }
  if ((cert === undefined) !== (key === undefined)) {
    throw fail(
      cert === undefined
        ? 'printed status.clientKeyData without status.clientCertificateData'
        : 'printed status.clientCertificateData without status.clientKeyData',
      SHAPE_HINT,
    );
  }
  let expiresAt: number | undefined;
  if (expirationTimestamp !== undefined && expirationTimestamp !== null) {
    expiresAt = typeof expirationTimestamp === 'string' ? Date.parse(expirationTimestamp) : Number.NaN;
    if (Number.isNaN(expiresAt)) {
      throw fail('printed a status.expirationTimestamp that is not a time', 'it must be an RFC 3339 time');
    }
  }
  return {
    ...(text(token) !== undefined ? { token: text(token) as string } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}
