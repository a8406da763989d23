/** Starting serve in-process over an input, the way the CLI does, for the serve tests. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { kubeconfigFor, type RunningServer, type StartOptions, startServer } from '../../src/serve/index.js';
import { loadHistoryParts, readServedExtras } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';

/** JSON as the server under test sent it: the tests check its shape. */
// biome-ignore lint/suspicious/noExplicitAny: JSON read back from the server under test
export type Json = any;

/** The real kubectl (.ci/run installs Debian's `kubectl` package); ATLEVEL_KUBECTL points elsewhere. */
export const KUBECTL = process.env.ATLEVEL_KUBECTL || '/usr/bin/kubectl';
export const hasKubectl = existsSync(KUBECTL);
/** Appended to the name of a kubectl test when there is no kubectl, so the skip says why. */
export const NO_KUBECTL = hasKubectl
  ? ''
  : ` (skipped: ${KUBECTL} not found; .ci/run installs it with apt-get)`;

/** `describe` for tests that drive kubectl: skipped, with the reason in its name, without one. */
export function describeKubectl(name: string, body: () => void): void {
  if (hasKubectl) describe(name, body);
  else describe.skip(`${name}${NO_KUBECTL}`, body);
}

export async function serve(
  paths: readonly string[],
  opts: Omit<StartOptions, 'history'> = {},
): Promise<RunningServer> {
  const history = buildHistory(await loadHistoryParts(paths, { now: Date.now() }));
  const extras = await readServedExtras(paths);
  return startServer({ history, extra: extras.objects, logs: extras.logs, ...opts });
}

/** A kubeconfig and a private HOME (kubectl's discovery cache) for one server. */
export function kubeconfig(server: RunningServer): { file: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'atlevel-serve-kubectl-'));
  const file = join(home, 'kubeconfig');
  writeFileSync(file, kubeconfigFor(server.url));
  return { file, home };
}

const run = promisify(execFile);

export async function kubectl(
  server: RunningServer,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { file, home } = kubeconfig(server);
  try {
    const r = await run(KUBECTL, ['--kubeconfig', file, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeout: 30_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text (logs, healthz)
  }
  return { status: res.status, body };
}

/** Read a watch stream's events until `until` says stop (or the stream ends). */
export async function watchEvents(
  url: string,
  until: (events: { type: string; object: Json }[]) => boolean,
  headers: Record<string, string> = {},
  /** Return the events read so far when the server cuts the stream, rather than throw. */
  untilCut = false,
): Promise<{ type: string; object: Json }[]> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: { type: string; object: Json }[] = [];
  const reader = res.body?.getReader();
  if (!reader) return events;
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const read = untilCut ? await reader.read().catch(() => undefined) : await reader.read();
      if (!read) break;
      const { value, done } = read;
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let nl = buffered.indexOf('\n');
      while (nl !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() !== '') events.push(JSON.parse(line));
        nl = buffered.indexOf('\n');
      }
      if (until(events)) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}
