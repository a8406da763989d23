import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/model/kinds/index.js';
import type { ClusterVersion } from '../../src/model/objects.js';
import { pendingRequest, requestInsight } from '../../src/status/request.js';

function cv(spec: object, status: object): ClusterVersion {
  return KINDS.ClusterVersion.schema.parse({
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec,
    status,
  });
}

const DESIRED = { version: '4.15.3', image: 'quay.io/x@sha256:aaa' };

/** A request for image bbb that the CVO refused (ReleaseAccepted=False since 09:00) with this reason and message. */
function refused(reason: string, message: string): ClusterVersion {
  return cv(
    { desiredUpdate: { image: 'quay.io/x@sha256:bbb' } },
    {
      desired: DESIRED,
      conditions: [
        {
          type: 'ReleaseAccepted',
          status: 'False',
          reason,
          message,
          lastTransitionTime: '2024-03-20T09:00:00Z',
        },
      ],
    },
  );
}

describe('an update requested but not started', () => {
  it('nothing pending when spec.desiredUpdate is status.desired', () => {
    expect(pendingRequest(cv({ desiredUpdate: DESIRED }, { desired: DESIRED }))).toBeUndefined();
    // compact and single-node clusters ask by image only
    expect(
      pendingRequest(cv({ desiredUpdate: { version: '', image: DESIRED.image } }, { desired: DESIRED })),
    ).toBeUndefined();
    expect(pendingRequest(cv({}, { desired: DESIRED }))).toBeUndefined();
  });

  it('asked for but not yet loaded: a Warning', () => {
    const request = pendingRequest(cv({ desiredUpdate: { version: '4.16.0' } }, { desired: DESIRED }));
    expect(request).toEqual({ version: '4.16.0', accepted: undefined });
    const insight = requestInsight({ object: cv({}, {}), ref: { file: 'cv.yaml' } }, request!);
    expect([insight.level, insight.message]).toEqual([
      'Warning',
      'Update to 4.16.0 was requested but has not started',
    ]);
  });

  it('refused by the CVO (ReleaseAccepted=False): an Error with the reason', () => {
    const request = pendingRequest(
      refused(
        'RetrievePayload',
        'Retrieving payload failed version="" image="quay.io/x@sha256:bbb" failure=The update cannot be verified',
      ),
    );
    expect(request).toMatchObject({
      image: 'quay.io/x@sha256:bbb',
      accepted: false,
      reason: 'RetrievePayload',
    });
    const insight = requestInsight({ object: cv({}, {}), ref: { file: 'cv.yaml' } }, request!);
    expect([insight.level, insight.impact, insight.message]).toEqual([
      'Error',
      'Update Stalled',
      'Update to quay.io/x@sha256:bbb was requested but not accepted (RetrievePayload)',
    ]);
    expect(insight.since).toBe(Date.parse('2024-03-20T09:00:00Z'));
  });

  it('status --at: a refusal whose reason is not known then is named by its condition, not "NotRewound"', () => {
    const unknown = "atlevel cannot tell this condition's message at 2024-03-20T10:00:00Z from the inputs";
    const request = pendingRequest(refused('NotRewound', unknown));
    expect(request).toMatchObject({ accepted: false, reason: 'ReleaseAccepted', message: unknown });
    const insight = requestInsight({ object: cv({}, {}), ref: { file: 'cv.yaml' } }, request!);
    expect(insight.message).toBe(
      'Update to quay.io/x@sha256:bbb was requested but not accepted (ReleaseAccepted)',
    );
  });
});
