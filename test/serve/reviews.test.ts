/**
 * SelfSubjectAccessReview and SelfSubjectRulesReview over HTTP: the answers, and the body checks the
 * API server's create handler and registry make (kubectl.test.ts drives `kubectl auth can-i` itself).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/index.js';
import { getJson, type Json, serve } from './helpers.js';
import { makeMustGather } from './make-must-gather.js';

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const READ_ONLY = 'atlevel serve is a read-only replay of recorded data';
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-serve-reviews-'));
  server = await serve([makeMustGather(dir, { nodes: 2, renderedConfigs: 2, events: 3, namespaces: 2 })]);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  readonly body?: string | Uint8Array;
  readonly contentType?: string;
  /** Send the body chunked, without a Content-Length. */
  readonly chunked?: boolean;
  readonly method?: string;
}

function send(path: string, sent: Sent): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const u = new URL(server.url);
    const headers: Record<string, string> = {};
    if (sent.contentType !== undefined) headers['Content-Type'] = sent.contentType;
    if (sent.body !== undefined && !sent.chunked)
      headers['Content-Length'] = String(Buffer.byteLength(sent.body));
    const req = request(
      { host: u.hostname, port: u.port, method: sent.method ?? 'POST', path, headers },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    // The server may answer (413) and close before taking the whole body.
    req.on('error', (err) => (err.message.includes('EPIPE') ? undefined : reject(err)));
    if (sent.body !== undefined) req.write(sent.body);
    req.end();
  });
}

const postJson = (path: string, value: unknown) =>
  send(path, { body: JSON.stringify(value), contentType: 'application/json' });

const access = (spec: unknown, extra: Record<string, unknown> = {}) =>
  postJson(SSAR, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec, ...extra });

const resource = (attrs: Record<string, string>) => access({ resourceAttributes: attrs });

/** A length-delimited protobuf field (every length here is under 128: a one-byte varint). */
function field(number: number, value: string | Uint8Array): Uint8Array {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  return Uint8Array.from([(number << 3) | 2, bytes.length, ...bytes]);
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** The Kubernetes protobuf envelope: `k8s\0`, then runtime.Unknown{typeMeta, raw}. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return concat(
    Uint8Array.from([0x6b, 0x38, 0x73, 0x00]),
    field(1, concat(field(1, apiVersion), field(2, kind))),
    field(2, raw),
  );
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** What kubectl 1.32 sent for `kubectl auth can-i list pods` (kubectl -v=8 prints the bytes). */
const KUBECTL_CAN_I_LIST_PODS = Buffer.from(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a6563744163636573735265766965' +
    '77123d0a100a0012001a0022002a00320038004200121f0a1d0a0764656661756c7412046c6973741a0022002a04706f647332003a00' +
    '1a08080012001a00200022001a002200',
  'hex',
);

describe('discovery', () => {
  it('lists authorization.k8s.io/v1 with the two self reviews, create only', async () => {
    const groups = await getJson(`${server.url}/apis`);
    expect(groups.body.groups.map((g: Json) => g.name)).toContain('authorization.k8s.io');
    const group = await getJson(`${server.url}/apis/authorization.k8s.io`);
    expect(group.body.preferredVersion).toEqual({ groupVersion: 'authorization.k8s.io/v1', version: 'v1' });
    const list = await getJson(`${server.url}/apis/authorization.k8s.io/v1`);
    expect(list.body.resources).toEqual([
      {
        name: 'selfsubjectaccessreviews',
        singularName: 'selfsubjectaccessreview',
        namespaced: false,
        kind: 'SelfSubjectAccessReview',
        verbs: ['create'],
      },
      {
        name: 'selfsubjectrulesreviews',
        singularName: 'selfsubjectrulesreview',
        namespaced: false,
        kind: 'SelfSubjectRulesReview',
        verbs: ['create'],
      },
    ]);
  });
});

describe('SelfSubjectAccessReview', () => {
  it('allows get, list and watch on what is served, and echoes the spec', async () => {
    const r = await resource({ namespace: 'openshift-ns-1', verb: 'list', resource: 'pods' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'openshift-ns-1', verb: 'list', resource: 'pods' } },
      status: { allowed: true, reason: 'served read-only from the recorded data' },
    });
    for (const verb of ['get', 'watch'])
      expect(
        (await resource({ verb, group: 'config.openshift.io', resource: 'clusteroperators' })).body.status,
      ).toMatchObject({ allowed: true });
    const logs = await resource({ verb: 'get', resource: 'pods', subresource: 'log', name: 'ns-1-pod-0' });
    expect(logs.body.status.allowed).toBe(true);
  });

  it('denies every other verb, and what is not served, saying why', async () => {
    const cases: [Record<string, string>, string][] = [
      [
        { verb: 'delete', group: 'config.openshift.io', resource: 'clusteroperators' },
        'it serves only get, list, watch on clusteroperators.config.openshift.io',
      ],
      [{ verb: 'create', resource: 'pods' }, 'it serves only get, list, watch on pods'],
      [{ verb: '*', resource: 'pods' }, 'it serves only get, list, watch on pods'],
      [{ verb: 'list', resource: 'pods', subresource: 'log' }, 'it serves only get on pods/log'],
      [{ verb: 'create', resource: 'pods', subresource: 'exec' }, 'it holds no pods/exec'],
      [{ verb: 'list', resource: 'secrets' }, 'it holds no secrets'],
      [{ verb: 'get', group: 'example.com', resource: 'widgets' }, 'it holds no widgets.example.com'],
      [
        { verb: 'list', group: '*', resource: '*' },
        'it answers for each resource it holds, not for "*" (kubectl auth can-i --list lists them)',
      ],
    ];
    for (const [attrs, why] of cases) {
      const r = await resource(attrs);
      expect(r.status, JSON.stringify(attrs)).toBe(201);
      expect(r.body.status, JSON.stringify(attrs)).toEqual({
        allowed: false,
        denied: true,
        reason: `${READ_ONLY}: ${why}`,
      });
    }
  });

  it('answers for the non-resource paths it serves: get only', async () => {
    for (const path of ['/version', '/healthz', '/api', '/api/v1', '/apis/config.openshift.io/v1'])
      expect((await access({ nonResourceAttributes: { verb: 'get', path } })).body.status.allowed, path).toBe(
        true,
      );
    const post = await access({ nonResourceAttributes: { verb: 'post', path: '/version' } });
    expect(post.body.status.reason).toBe(`${READ_ONLY}: it serves only get on /version`);
    const metrics = await access({ nonResourceAttributes: { verb: 'get', path: '/metrics' } });
    expect(metrics.body.status).toEqual({
      allowed: false,
      denied: true,
      reason: `${READ_ONLY}: it serves nothing at /metrics`,
    });
  });

  it('reads the protobuf kubectl sends', async () => {
    const r = await send(SSAR, { body: KUBECTL_CAN_I_LIST_PODS, contentType: PROTOBUF });
    expect(r.status).toBe(201);
    expect(r.body.spec).toEqual({
      resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' },
    });
    expect(r.body.status.allowed).toBe(true);
  });

  it('validates as the registry does: 422 Invalid, kind left empty', async () => {
    const neither = await access({});
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      reason: 'Invalid',
      details: {
        group: 'authorization.k8s.io',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
            field: 'spec.resourceAttributes',
          },
        ],
      },
      code: 422,
    });
    const both = await access({
      resourceAttributes: { verb: 'get', resource: 'pods' },
      nonResourceAttributes: { verb: 'get', path: '/version' },
    });
    expect(both.status).toBe(422);
    expect(both.body.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/version", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    const named = await access(
      { resourceAttributes: { verb: 'get', resource: 'pods' } },
      { metadata: { name: 'x' } },
    );
    expect(named.status).toBe(422);
    expect(named.body.message).toBe(
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: {"name":"x"}: must be empty',
    );
    // What a Go client's JSON holds for an empty ObjectMeta is empty.
    const unset = await access(
      { resourceAttributes: { verb: 'get', resource: 'pods' } },
      { metadata: { creationTimestamp: null } },
    );
    expect(unset.status).toBe(201);
    // The same checks on a protobuf body.
    const protoNeither = await send(SSAR, {
      body: envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', field(2, new Uint8Array())),
      contentType: PROTOBUF,
    });
    expect(protoNeither.status).toBe(422);
    expect(protoNeither.body.message).toBe(neither.body.message);
  });

  it('refuses a body it cannot read as the create handler does: 400, 413, 415', async () => {
    const bad: [Sent, number, string][] = [
      [
        { body: '', contentType: 'application/json' },
        400,
        "the object provided is unrecognized (must be of type SelfSubjectAccessReview): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
      ],
      [
        { body: '[]', contentType: 'application/json' },
        400,
        'the object provided is unrecognized (must be of type SelfSubjectAccessReview): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
      ],
      [
        { body: '{"kind":5}', contentType: 'application/json' },
        400,
        'the object provided is unrecognized (must be of type SelfSubjectAccessReview): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
      ],
      [
        { body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod' }), contentType: 'application/json' },
        400,
        'Pod in version "v1" cannot be handled as a SelfSubjectAccessReview: no kind "Pod" is registered for version "v1" in scheme "atlevel serve"',
      ],
      [
        {
          body: JSON.stringify({
            apiVersion: 'authorization.k8s.io/v1beta1',
            kind: 'SelfSubjectAccessReview',
          }),
          contentType: 'application/json',
        },
        400,
        'the API version in the data (authorization.k8s.io/v1beta1) does not match the expected API version (authorization.k8s.io/v1)',
      ],
      [
        { body: JSON.stringify({ kind: 'SelfSubjectRulesReview' }), contentType: 'application/json' },
        400,
        'SelfSubjectRulesReview in version "v1" cannot be handled as a SelfSubjectAccessReview: converting (v1.SelfSubjectRulesReview) to (authorization.SelfSubjectAccessReview): unknown conversion',
      ],
      [
        {
          body: JSON.stringify({ spec: { resourceAttributes: { verb: 5 } } }),
          contentType: 'application/json',
        },
        400,
        'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string',
      ],
      [
        { body: JSON.stringify({ spec: [] }), contentType: 'application/json' },
        400,
        'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal array into Go struct field SelfSubjectAccessReview.spec of type v1.SelfSubjectAccessReviewSpec',
      ],
      [
        // JSON sent as protobuf: no magic prefix.
        { body: '{"spec":{}}', contentType: PROTOBUF },
        400,
        'the object provided is unrecognized (must be of type SelfSubjectAccessReview): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"spec":{}})',
      ],
      [
        {
          body: envelope(
            'authorization.k8s.io/v1',
            'SelfSubjectAccessReview',
            // spec.resourceAttributes says 29 bytes follow; 2 do.
            Uint8Array.from([0x12, 0x04, 0x0a, 0x1d, 0x0a, 0x07]),
          ),
          contentType: PROTOBUF,
        },
        400,
        'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: unexpected EOF',
      ],
      [
        { body: '{}', contentType: 'text/plain' },
        415,
        'the body of the request was in an unknown format - accepted media types include: application/json, application/vnd.kubernetes.protobuf',
      ],
      [
        { body: `{"x":"${'a'.repeat(70_000)}"}`, contentType: 'application/json' },
        413,
        'Request entity too large: limit is 65536',
      ],
      [
        { body: `{"x":"${'a'.repeat(70_000)}"}`, contentType: 'application/json', chunked: true },
        413,
        'Request entity too large: limit is 65536',
      ],
    ];
    for (const [sent, code, message] of bad) {
      const what = `${sent.contentType} ${String(sent.body).slice(0, 40)}`;
      const r = await send(SSAR, sent);
      expect(r.status, what).toBe(code);
      expect(r.body, what).toMatchObject({ kind: 'Status', status: 'Failure', code, message });
    }
  });

  it('is create only, at its one path; every other write is refused as before', async () => {
    const get = await getJson(`${server.url}${SSAR}`);
    expect(get.status).toBe(405);
    expect(get.body).toMatchObject({
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
    });
    const body = JSON.stringify({ spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
    for (const [method, path] of [
      ['PUT', SSAR],
      ['DELETE', SSAR],
      ['POST', '/apis/authorization.k8s.io/v1/namespaces/default/selfsubjectaccessreviews'],
      ['POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews'],
      ['POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews'],
      ['POST', '/api/v1/namespaces'],
    ] as const) {
      const r = await send(path, { method, body, contentType: 'application/json' });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.body.message).toBe(
        `${method} is not allowed: atlevel serve is a read-only recording (only get, list and watch are served)`,
      );
    }
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules can-i answers from: get, list, watch on each served resource, get on pods/log and paths', async () => {
    const r = await postJson(SSRR, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'openshift-ns-1' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: {},
      status: { incomplete: false },
    });
    const rules = r.body.status.resourceRules as Json[];
    expect(rules.find((x) => x.apiGroups[0] === '')).toMatchObject({
      verbs: ['get', 'list', 'watch'],
      resources: expect.arrayContaining(['events', 'namespaces', 'nodes', 'pods']),
    });
    expect(rules).toContainEqual({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] });
    expect(rules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    });
    expect(new Set(rules.flatMap((x) => x.verbs))).toEqual(new Set(['get', 'list', 'watch', 'create']));
    expect(r.body.status.nonResourceRules).toEqual([
      { verbs: ['get'], nonResourceURLs: expect.arrayContaining(['/api', '/apis', '/healthz', '/version']) },
    ]);
  });

  it('needs a namespace, as the registry does', async () => {
    const r = await postJson(SSRR, { spec: {} });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ reason: 'BadRequest', message: 'no namespace on request' });
  });
});
