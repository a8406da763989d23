/**
 * origin's monitor text forms (docs/domain.md 7.1, 7.2): a locator such as `ns/x pod/y` or
 * `clusteroperator/machine-config`, and a message such as
 * `condition/Progressing status/True reason/X changed: text`. Used for build-log lines and for the
 * 4.10-era JSON intervals whose locator and message are plain strings.
 */
import { type IntervalMessage, type Locator, namespacedKindOf } from '../model/index.js';

/**
 * Keys that start a message rather than continue a locator. Everything else of the form `key/value`
 * at the start of a line's text belongs to the locator.
 */
const MESSAGE_KEYS = new Set([
  'reason',
  'cause',
  'condition',
  'status',
  'config',
  'roles',
  'role',
  'phase',
  'state',
  'constructed',
  'interesting',
  'severity',
  'alertstate',
  'count',
  'pathological',
  'duration',
  'container-exit-code',
  'container-reason',
  'firstTimestamp',
  'lastTimestamp',
]);

/** One `key/value` token; e2e-test values are quoted and may hold spaces. Sticky: matched at `lastIndex`. */
const TOKEN = /([a-zA-Z][a-zA-Z0-9_.-]*)\/("(?:[^"\\]|\\.)*"|\S*)(?:\s+|$)/y;

interface Token {
  readonly key: string;
  readonly value: string;
  readonly length: number;
}

function readToken(text: string, at: number): Token | undefined {
  TOKEN.lastIndex = at;
  const m = TOKEN.exec(text);
  if (!m?.[1] || m[2] === undefined) return undefined;
  let value = m[2];
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      value = JSON.parse(value) as string;
    } catch {
      value = value.slice(1, -1);
    }
  }
  return { key: m[1], value, length: m[0].length };
}

/** Split `clusteroperator/x condition/Progressing ...` into the locator text and the message text. */
export function splitLocatorAndMessage(text: string): { locator: string; message: string } {
  let at = 0;
  while (at < text.length) {
    const token = readToken(text, at);
    if (!token || MESSAGE_KEYS.has(token.key)) break;
    at += token.length;
  }
  return { locator: text.slice(0, at).trimEnd(), message: text.slice(at) };
}

/**
 * The locator at the start of a monitor line's text and where its message starts, tokenised once:
 * the same as parseLocatorText of splitLocatorAndMessage's locator. Undefined when there is none.
 */
export function splitLocator(text: string): { locator: Locator; message: string } | undefined {
  const keys: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const token = readToken(text, at);
    if (!token || MESSAGE_KEYS.has(token.key)) break;
    const key = token.key === 'ns' ? 'namespace' : token.key;
    if (key !== '__proto__') keys[key] = token.value;
    at += token.length;
  }
  if (at === 0) return undefined;
  const message = text.slice(at);
  return {
    locator: { type: locatorType(keys, message.trimStart().startsWith('condition/')), keys },
    message,
  };
}

/** `\s` of a regular expression, for ASCII characters. */
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** `[a-zA-Z0-9_.-]` */
function isKeyChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

/**
 * Where splitLocator's locator tokens, starting at `from`, end (where the message starts), found
 * without its regular expression and without making strings: the tokens of `text.slice(from)` are
 * the same as those of the locator text `text.slice(from, end)`, so the locator can be looked up by
 * that text. -1 when a token holds what only the regular expression reads exactly (a quoted value,
 * a character beyond ASCII, whose `\s` is Unicode's): the caller then tokenises with splitLocator.
 */
export function locatorEnd(text: string, from: number): number {
  const n = text.length;
  let at = from;
  while (at < n) {
    // `([a-zA-Z][a-zA-Z0-9_.-]*)\/`
    const first = text.charCodeAt(at);
    if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a))) return at;
    let i = at + 1;
    while (i < n && isKeyChar(text.charCodeAt(i))) i++;
    if (i >= n || text.charCodeAt(i) !== 0x2f) return at;
    if (MESSAGE_KEYS.has(text.slice(at, i))) return at;
    i++;
    // `(\S*)(?:\s+|$)`, unless a quoted value may follow.
    if (text.charCodeAt(i) === 0x22) return -1;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return -1;
      if (isAsciiSpace(c)) break;
    }
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return -1;
      if (!isAsciiSpace(c)) break;
    }
    at = i;
  }
  return at;
}

/**
 * A locator's text as origin's structured locator: type plus keys (`ns` becomes `namespace`). With
 * `conditionChange` (the message is `condition/…`), a namespaced object of a kind atlevel models is typed
 * as that kind; otherwise it is a Kubernetes event about it.
 */
export function parseLocatorText(text: string, conditionChange = false): Locator {
  const keys: Record<string, string> = {};
  let at = 0;
  const trimmed = text.trim();
  while (at < trimmed.length) {
    const token = readToken(trimmed, at);
    if (!token) break;
    const key = token.key === 'ns' ? 'namespace' : token.key;
    if (key !== '__proto__') keys[key] = token.value;
    at += token.length;
  }
  if (at < trimmed.length && Object.keys(keys).length === 0) {
    return { type: 'Unknown', keys: { text: trimmed } };
  }
  return { type: locatorType(keys, conditionChange), keys };
}

function locatorType(keys: Record<string, string>, conditionChange = false): string {
  const has = (k: string) => Object.hasOwn(keys, k);
  if (has('e2e-test')) return 'E2ETest';
  if (has('alert')) return 'Alert';
  if (has('disruption') || has('backend-disruption-name')) return 'Disruption';
  if (has('container')) return 'Container';
  if (has('pod')) return 'Pod';
  if (has('clusteroperator')) return 'ClusterOperator';
  if (has('clusterversion')) return 'ClusterVersion';
  if (has('machineconfigpool')) return 'MachineConfigPool';
  if (has('machineconfig')) return 'MachineConfig';
  const objectKeys = Object.keys(keys).filter((k) => !['namespace', 'hmsg', 'row', 'uid'].includes(k));
  if (has('node') && objectKeys.length === 1) return 'Node';
  // `ns/NS deployment/NAME condition/…`: a condition change of an object of a namespaced kind atlevel
  // models (watch writes these). Without a condition it is a Kubernetes event about the object (origin's
  // `ns/NS deployment/NAME reason/ScalingReplicaSet …`), which the timeline indexes by reason.
  const only = objectKeys.length === 1 ? objectKeys[0] : undefined;
  const known =
    conditionChange && only !== undefined && has('namespace') ? namespacedKindOf(only) : undefined;
  if (known) return known;
  if (has('namespace') && objectKeys.length > 0) return 'KubeEvent';
  if (objectKeys.length === 0 && has('namespace')) return 'Namespace';
  return Object.keys(keys).length === 0 ? 'Unknown' : 'KubeEvent';
}

/**
 * A condition's own message, out of the text a monitor wrote for its change. origin's ClusterVersion
 * watcher writes, as the structured interval's humanMessage, `changed to <Type>=<Status>: <Reason>:
 * <message>` (openshift/origin `pkg/monitor/monitorapi` GetOperatorConditionHumanMessage with the
 * prefix `changed to `, called from `pkg/monitortests/testframework/watchclusteroperators`), and
 * puts the condition, status and reason in the annotations too; its derived intervals carry the same
 * text on. The 4.10 text form is `changed <Type> to <Status>: <Reason>: <message>`. An object rebuilt
 * from intervals must show the condition's message as the object had it, not the monitor's line
 * (else `atlevel watch` would print the decoration twice), so the decoration is taken off when the
 * annotations say which condition, status and reason it spells. Any other text is returned as it is.
 */
export function conditionOwnMessage(human: string, annotations: Readonly<Record<string, string>>): string {
  const type = annotations.condition;
  const status = annotations.status;
  if (type === undefined || status === undefined || type === '' || !human.startsWith('changed '))
    return human;
  for (const head of [`changed to ${type}=${status}`, `changed ${type} to ${status}`]) {
    if (human === head) return '';
    if (!human.startsWith(`${head}: `)) continue;
    const rest = human.slice(head.length + 2);
    const reason = annotations.reason;
    // origin adds the reason only when there is a message after it.
    return reason && rest.startsWith(`${reason}: `) ? rest.slice(reason.length + 2) : rest;
  }
  return human;
}

const CONDITION_CHANGED = /^condition\/(\S+) status\/(\S+)(?: reason\/(\S+))? changed:(?: (.*))?$/s;
/** The 4.10 derived condition interval puts the condition's *message* in the reason slot. */
const CONDITION_INTERVAL = /^condition\/(\S+) status\/(\S+) reason\/(.*)$/s;
const CV_CHANGED = /^changed (\S+) to (\S+?)(?:: (.*))?$/s;
const CAMEL = /^[A-Z][A-Za-z0-9]*$/;

/**
 * A message's text as origin's structured message. `interval` says the line spans time (it has a
 * duration), which is how the 4.10 derived condition intervals can be told apart from instants.
 */
export function parseMessageText(text: string, interval: boolean): IntervalMessage {
  const message = text.trim();
  let m = CONDITION_CHANGED.exec(message);
  if (m?.[1] && m[2]) {
    const annotations: Record<string, string> = { condition: m[1], status: m[2] };
    if (m[3]) annotations.reason = m[3];
    return { reason: m[3] ?? '', humanMessage: m[4] ?? '', annotations };
  }
  m = interval ? CONDITION_INTERVAL.exec(message) : null;
  if (m?.[1] && m[2] && m[3] !== undefined && !m[3].includes(' status/')) {
    return { reason: '', humanMessage: m[3], annotations: { condition: m[1], status: m[2] } };
  }
  if (message.startsWith('versions: ')) {
    return {
      reason: '',
      humanMessage: message,
      annotations: { versions: message.slice('versions: '.length) },
    };
  }
  m = CV_CHANGED.exec(message);
  if (m?.[1] && m[2] && CAMEL.test(m[1])) {
    const annotations: Record<string, string> = { condition: m[1], status: m[2] };
    let human = m[3] ?? '';
    const reasonSplit = /^(\S+?)(?:: (.*))?$/s.exec(human);
    if (reasonSplit?.[1] && CAMEL.test(reasonSplit[1])) {
      annotations.reason = reasonSplit[1];
      human = reasonSplit[2] ?? '';
    }
    return { reason: annotations.reason ?? '', humanMessage: human, annotations };
  }
  // Structured-era text: sorted `key/value` annotations, then the human message.
  const annotations: Record<string, string> = {};
  let at = 0;
  while (at < message.length) {
    const token = readToken(message, at);
    if (!token || /^[A-Z]/.test(token.key)) break;
    if (token.key !== '__proto__') annotations[token.key] = token.value;
    at += token.length;
  }
  return {
    reason: annotations.reason ?? '',
    humanMessage: conditionOwnMessage(message.slice(at), annotations),
    annotations,
  };
}
