/**
 * The result of a semantic MachineConfig diff (docs/domain.md 3.4). This is a public contract: it is the
 * `changes` array of `atlevel diff -o json` and it is embedded in analyze's explanations, which is why
 * it lives in model/ (a Finding carries it; machineconfig/ computes it and re-exports these types).
 */

export type ConfigPart =
  | 'files'
  | 'units'
  | 'dropins'
  | 'kernelArguments'
  | 'osImageURL'
  | 'extensions'
  | 'fips'
  | 'kernelType'
  | 'passwd'
  | 'ignitionVersion'
  | 'other';

type ChangeKind = 'added' | 'removed' | 'modified';

/** A container image reference found in a changed line, named by its release component when known. */
export interface ImageChange {
  /** Pull spec (or bare digest) before and after; one side is absent when the image was added/removed. */
  readonly before?: string;
  readonly after?: string;
  /**
   * Release component (image-references tag), e.g. `pod`, of `after` (of `before` for a removed image)
   * when release info was given and names it; never guessed from the image a new one replaced.
   */
  readonly component?: string;
  /**
   * When `after` has no known component: the component `before` was in the older release (the new
   * image's own component stays unknown).
   */
  readonly replaced?: string;
}

export interface ConfigChange {
  readonly part: ConfigPart;
  /** File path, unit name (`kubelet.service`), drop-in (`kubelet.service/10-foo.conf`), or the field name. */
  readonly name: string;
  readonly change: ChangeKind;
  /** Short human summaries of the old and new value (file contents are summarised, not copied whole). */
  readonly before?: string;
  readonly after?: string;
  /** Unified diff of the text, for text content. */
  readonly textDiff?: string;
  /** Lines that differ, for one-line explanations: `-old` / `+new` pairs from the text diff. */
  readonly changedLines?: readonly { readonly before?: string; readonly after?: string }[];
  /** Attributes that changed besides content: `mode 420 → 384`, `enabled false → true`. */
  readonly attributes?: readonly string[];
  readonly images?: readonly ImageChange[];
}

/** Metadata of one side of a diff: not part of the config, but it says who rendered it and when. */
export interface ConfigInfo {
  readonly name: string;
  readonly created?: string;
  /** `machineconfiguration.openshift.io/generated-by-controller-version` (the MCO commit). */
  readonly controllerVersion?: string;
  /** `machineconfiguration.openshift.io/release-image-version` (absent before MCO PR #2918). */
  readonly releaseImageVersion?: string;
  readonly ignitionVersion?: string;
  /** Where it was read from. */
  readonly file?: string;
}

export interface MachineConfigDiff {
  readonly from: string;
  readonly to: string;
  readonly identical: boolean;
  readonly changes: readonly ConfigChange[];
  /** Added (optional): metadata of each side. */
  readonly fromInfo?: ConfigInfo;
  readonly toInfo?: ConfigInfo;
  /** Added (optional): the filters applied; `identical` then means identical within them. */
  readonly filter?: { readonly only?: readonly ConfigPart[]; readonly path?: string };
}
