/**
 * The `OperatorVersionChanged` Event of the operators built on openshift/library-go (etcd,
 * kube-apiserver, kube-controller-manager, kube-scheduler, authentication, openshift-apiserver, ...).
 * library-go's ClusterOperator status controller (pkg/operator/status/status_controller.go) records
 * one Event per `status.versions` entry it changes, in the sync that writes it:
 * `clusteroperator/NAME version "ENTRY" changed from "OLD" to "NEW"`, each value quoted by Go's `%q`
 * (OLD is `""` for an entry the operator never reported). The Event is about the operator's own
 * workload (its recorder's involvedObject: the Deployment that runs the operator, in its namespace,
 * e.g. `openshift-etcd-operator/etcd-operator`), never the ClusterOperator, so the ClusterOperator is
 * known only from the message. docs/domain.md (level reports) says which entries are level reports.
 */

/** One changed `status.versions` entry of a ClusterOperator, as the Event names it. */
export interface LibraryGoVersionChange {
  readonly operator: string;
  readonly name: string;
  readonly from: string;
  readonly to: string;
}

/**
 * A Go `%q` string of ASCII-printable text, escapes included. A ClusterOperator's name is a
 * Kubernetes object name (lowercase, digits, `-` and `.`). The ` (N times)` is how the timeline
 * writes an aggregated Event's count (derive.ts), not part of the recorded message.
 */
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const LIBRARY_GO_RE = new RegExp(
  `^clusteroperator/([a-z0-9][-a-z0-9.]*) version (${QUOTED}) changed from (${QUOTED}) to (${QUOTED})(?: \\([1-9][0-9]* times\\))?$`,
);

/** Object names are at most 253 characters; a longer "name" is not one. */
const MAX_NAME = 253;

/**
 * The change a library-go `OperatorVersionChanged` message reports, or undefined when the message is
 * not exactly that form (the machine-config operator's own form, `version changed from [{...}] to
 * [{...}]`, is read in query.ts; nothing else is a version report). A value that Go quoted with an
 * escape JSON does not share (`\x00`, `\a`) is not guessed at: no change rather than a wrong one.
 */
export function parseLibraryGoVersionEvent(message: string): LibraryGoVersionChange | undefined {
  // The form's fixed words, before the pattern: most Events of this reason are the other form.
  if (!message.startsWith('clusteroperator/') || !message.includes('" changed from "')) return undefined;
  const m = LIBRARY_GO_RE.exec(message);
  if (!m?.[1] || m[1].length > MAX_NAME) return undefined;
  const name = unquote(m[2]);
  const from = unquote(m[3]);
  const to = unquote(m[4]);
  // library-go records the Event only for a change to a value; an empty one is no report.
  if (name === undefined || name === '' || from === undefined || to === undefined || to === '')
    return undefined;
  if (from === to) return undefined;
  return { operator: m[1], name, from, to };
}

function unquote(quoted: string | undefined): string | undefined {
  if (quoted === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(quoted);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}
