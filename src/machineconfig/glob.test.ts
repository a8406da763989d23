import { describe, expect, it } from 'vitest';
import { globToRegExp } from './glob.js';

const matches = (glob: string, name: string) => globToRegExp(glob).test(name);

describe('globToRegExp', () => {
  it('keeps * and ? within one path segment', () => {
    expect(matches('/etc/kubernetes/*.conf', '/etc/kubernetes/kubelet.conf')).toBe(true);
    expect(matches('/etc/*.conf', '/etc/kubernetes/kubelet.conf')).toBe(false);
    expect(matches('kubelet.?ervice', 'kubelet.service')).toBe(true);
  });

  it('lets ** cross segments, and **/ match no folder', () => {
    expect(matches('/etc/crio/**', '/etc/crio/crio.conf.d/00-default')).toBe(true);
    expect(matches('/etc/**/00-default', '/etc/00-default')).toBe(true);
    expect(matches('**/*.service', 'kubelet.service')).toBe(true);
  });

  it('supports classes, negated classes and alternatives; matches the whole name', () => {
    expect(matches('/etc/sysctl.d/[a-f]*.conf', '/etc/sysctl.d/forward.conf')).toBe(true);
    expect(matches('/etc/sysctl.d/[!a-f]*.conf', '/etc/sysctl.d/forward.conf')).toBe(false);
    expect(matches('{kubelet,crio}.service', 'crio.service')).toBe(true);
    expect(matches('kubelet', 'kubelet.service')).toBe(false);
    expect(matches('a.b', 'axb')).toBe(false);
  });
});
