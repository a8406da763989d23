import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conditionOwnMessage,
  locatorEnd,
  parseLocatorText,
  parseMessageText,
  splitLocator,
  splitLocatorAndMessage,
} from './monitor-text.js';

describe('splitLocatorAndMessage', () => {
  it('stops the locator at the first message key', () => {
    expect(
      splitLocatorAndMessage('clusteroperator/machine-config condition/Progressing status/True changed: x'),
    ).toEqual({
      locator: 'clusteroperator/machine-config',
      message: 'condition/Progressing status/True changed: x',
    });
  });

  it('keeps multi-key kube event locators whole', () => {
    expect(
      splitLocatorAndMessage('ns/openshift-etcd pod/etcd-0 node/m0 reason/Killing Stopping container'),
    ).toEqual({
      locator: 'ns/openshift-etcd pod/etcd-0 node/m0',
      message: 'reason/Killing Stopping container',
    });
  });

  it('reads quoted e2e-test values with spaces', () => {
    const { locator, message } = splitLocatorAndMessage(
      'e2e-test/"[sig-arch] a test [Serial]" status/Passed',
    );
    expect(locator).toBe('e2e-test/"[sig-arch] a test [Serial]"');
    expect(parseLocatorText(locator)).toEqual({
      type: 'E2ETest',
      keys: { 'e2e-test': '[sig-arch] a test [Serial]' },
    });
    expect(message).toBe('status/Passed');
  });
});

describe('parseLocatorText', () => {
  it.each([
    ['clusteroperator/machine-config', 'ClusterOperator', { clusteroperator: 'machine-config' }],
    ['clusterversion/version', 'ClusterVersion', { clusterversion: 'version' }],
    ['node/ip-10-0-1-2', 'Node', { node: 'ip-10-0-1-2' }],
    [
      'ns/openshift-mco node/ip-1 hmsg/502676ccb6',
      'Node',
      { namespace: 'openshift-mco', node: 'ip-1', hmsg: '502676ccb6' },
    ],
    ['ns/x pod/y', 'Pod', { namespace: 'x', pod: 'y' }],
    ['ns/x pod/y uid/u container/c', 'Container', { namespace: 'x', pod: 'y', uid: 'u', container: 'c' }],
    ['ns/x deployment/y', 'KubeEvent', { namespace: 'x', deployment: 'y' }],
    ['alert/KubePodNotReady ns/x', 'Alert', { alert: 'KubePodNotReady', namespace: 'x' }],
    ['disruption/kube-api connection/new', 'Disruption', { disruption: 'kube-api', connection: 'new' }],
  ])('%s → %s', (text, type, keys) => {
    expect(parseLocatorText(text)).toEqual({ type, keys });
  });

  it('keeps text that is not key/value as an Unknown locator', () => {
    expect(parseLocatorText('something odd')).toEqual({ type: 'Unknown', keys: { text: 'something odd' } });
  });

  it('never sets a prototype through a __proto__ key', () => {
    const loc = parseLocatorText('__proto__/x node/n');
    expect(Object.getPrototypeOf(loc.keys)).toBe(Object.prototype);
    expect(loc).toEqual({ type: 'Unknown', keys: { text: '__proto__/x node/n' } });
  });
});

describe('parseMessageText', () => {
  it('reads a 4.10 condition change with a reason', () => {
    expect(
      parseMessageText(
        'condition/Upgradeable status/False reason/PoolUpdating changed: One or more pools',
        false,
      ),
    ).toEqual({
      reason: 'PoolUpdating',
      humanMessage: 'One or more pools',
      annotations: { condition: 'Upgradeable', status: 'False', reason: 'PoolUpdating' },
    });
  });

  it('reads a condition change with an empty message', () => {
    expect(parseMessageText('condition/Upgradeable status/True changed: ', false)).toEqual({
      reason: '',
      humanMessage: '',
      annotations: { condition: 'Upgradeable', status: 'True' },
    });
  });

  it('reads the derived condition interval whose reason slot holds the message', () => {
    expect(parseMessageText('condition/Progressing status/True reason/Working towards 4.10.0', true)).toEqual(
      {
        reason: '',
        humanMessage: 'Working towards 4.10.0',
        annotations: { condition: 'Progressing', status: 'True' },
      },
    );
  });

  it('keeps versions text and annotates it', () => {
    const m = parseMessageText('versions: operator 4.10.0-a -> 4.10.0-b, operator-image x -> y', false);
    expect(m.annotations.versions).toBe('operator 4.10.0-a -> 4.10.0-b, operator-image x -> y');
    expect(m.humanMessage).toBe('versions: operator 4.10.0-a -> 4.10.0-b, operator-image x -> y');
  });

  it('reads ClusterVersion condition changes', () => {
    expect(parseMessageText('changed Failing to True: UpdatePayloadFailed: could not apply', false)).toEqual({
      reason: 'UpdatePayloadFailed',
      humanMessage: 'could not apply',
      annotations: { condition: 'Failing', status: 'True', reason: 'UpdatePayloadFailed' },
    });
    expect(parseMessageText('changed Progressing to True: Working towards 4.10.0', false)).toEqual({
      reason: '',
      humanMessage: 'Working towards 4.10.0',
      annotations: { condition: 'Progressing', status: 'True' },
    });
  });

  it("takes origin's decoration off a condition's message, only where the annotations spell it", () => {
    const a = { condition: 'Progressing', status: 'True', reason: 'Working' };
    expect(conditionOwnMessage('changed to Progressing=True: Working: towards 4.10.0', a)).toBe(
      'towards 4.10.0',
    );
    expect(conditionOwnMessage('changed to Progressing=True: towards 4.10.0', { ...a, reason: '' })).toBe(
      'towards 4.10.0',
    );
    expect(conditionOwnMessage('changed to Progressing=True', a)).toBe('');
    expect(conditionOwnMessage('changed Progressing to True: Working: towards 4.10.0', a)).toBe(
      'towards 4.10.0',
    );
    // A message that merely starts alike, or text of another condition or status, is left as it is.
    expect(conditionOwnMessage('changed to Progressing=False: x', a)).toBe('changed to Progressing=False: x');
    expect(conditionOwnMessage('changed to Available=True: x', a)).toBe('changed to Available=True: x');
    expect(conditionOwnMessage('changed to Progressing=True: x', {})).toBe('changed to Progressing=True: x');
    expect(conditionOwnMessage('changed to Progressing=Truex', a)).toBe('changed to Progressing=Truex');
    // The structured era's build-log text: sorted annotations, then origin's humanMessage.
    expect(
      parseMessageText(
        'condition/Progressing reason/Working status/True changed to Progressing=True: Working: w',
        false,
      ),
    ).toEqual({ reason: 'Working', humanMessage: 'w', annotations: a });
  });

  it('reads node config messages and sorted structured annotations', () => {
    expect(
      parseMessageText(
        'reason/MachineConfigChange config/rendered-master-abc roles/master config change requested',
        false,
      ),
    ).toEqual({
      reason: 'MachineConfigChange',
      humanMessage: 'config change requested',
      annotations: { reason: 'MachineConfigChange', config: 'rendered-master-abc', roles: 'master' },
    });
  });

  it('leaves plain text alone', () => {
    expect(parseMessageText('cluster reached 4.10.0', false)).toEqual({
      reason: '',
      humanMessage: 'cluster reached 4.10.0',
      annotations: {},
    });
  });
});

describe('locatorEnd', () => {
  it('ends where splitLocator starts the message, or declines', () => {
    const piece = fc.constantFrom(
      'ns/',
      'pod/',
      'node/',
      'reason/',
      'status/',
      'e2e-test/',
      'x.y_z-1/',
      '9a/',
      'a',
      'b-c',
      '"q r"',
      '"',
      '\\',
      ' ',
      '  ',
      '\t',
      '\r',
      '\u00a0',
      '\u2028',
      'é',
      '/',
      ':',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(3), (pieces, from) => {
        const text = pieces.join('');
        const start = Math.min(from, text.length);
        const end = locatorEnd(text, start);
        if (end === -1) return;
        const split = splitLocator(text.slice(start));
        if (end === start) expect(split).toBeUndefined();
        else expect(split?.message).toBe(text.slice(end));
      }),
      { numRuns: 5000 },
    );
  });

  it('declines quoted values, which only the pattern reads exactly', () => {
    expect(locatorEnd('e2e-test/"a b" status/Passed', 0)).toBe(-1);
    expect(locatorEnd('ns/x pod/y reason/Killing z', 0)).toBe('ns/x pod/y '.length);
  });
});
