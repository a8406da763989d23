import type { Signature } from '../model/finding.js';

/** Known ways the operator's level report can race its pools (docs/domain.md 1.1, 1.2). */
export const SIGNATURES = {
  bug1999556: {
    id: 'bug-1999556',
    title: 'Rendered config changed while the MCO commit and the OS image did not',
    detail:
      'The machine-config operator checks that the master pool is on a valid rendered config before it reports level. ' +
      'Before MCO PR #2918 "valid" meant: made by the same controller version (MCO commit) and carrying the same osImageURL. ' +
      'When a release changes only another image that templates embed (here the pause image), the old rendered config passes both ' +
      'checks, so the operator reported level from the stale config while the render controller was still about to produce the new ' +
      'one. The fix stamps every rendered config with release-image-version and makes the operator wait for a master config stamped ' +
      'with its own release.',
    references: [
      'https://bugzilla.redhat.com/show_bug.cgi?id=1999556',
      'https://bugzilla.redhat.com/show_bug.cgi?id=2019850',
      'https://github.com/openshift/machine-config-operator/pull/2918',
    ],
  },
  osImageRace: {
    id: 'bug-1955929',
    title: 'Only the OS image changed, and the operator did not compare osImageURL',
    detail:
      'The rendered config changed only in osImageURL while the MCO commit stayed the same. Operators without the osImageURL ' +
      'check (MCO PR #2585) report level from the old rendered config.',
    references: ['https://github.com/openshift/machine-config-operator/pull/2585'],
  },
  postFix: {
    id: 'level-despite-release-image-version',
    title: 'The operator reported level although its rendered configs carry release-image-version',
    detail:
      'The rendered configs are stamped with release-image-version, so the operator has the fix for bug 1999556, yet it still ' +
      "reported level before the pool had the new release's config. This is not a known signature: look at the operator's " +
      'RequiredPools sync in its logs.',
    references: ['https://github.com/openshift/machine-config-operator/pull/2918'],
  },
} as const satisfies Record<string, Signature>;
