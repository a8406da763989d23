/**
 * What the store keeps of one analysed run: the row of `runs` and the rows that hang off it. ingest/
 * builds it from an analysis; the store writes it in one transaction. Times are epoch milliseconds.
 * docs/runs.md maps each field to its column.
 */

type RuleStateName = 'holds' | 'violated' | 'not-checked';

/**
 * How much of what it judges a checked rule covered (analyze's `coverage`, docs/analyze-json.md):
 * `full` every member, `partial` part but at least half, `thin` less than half (a holds on so little
 * makes analyze's verdict inconclusive). Null for a rule not checked.
 */
type CoverageName = 'full' | 'partial' | 'thin';

/** analyze's `coverage` object as -o json prints it, for a rule that checked part of its members. */
interface CoverageDetail {
  readonly of: string;
  readonly checked: number;
  readonly total: number;
  readonly notChecked: readonly string[];
  readonly reason: string;
  readonly needs: readonly string[];
  readonly enough: boolean;
}

interface RuleStateRecord {
  readonly rule: string;
  readonly state: RuleStateName;
  readonly missing: readonly string[];
  readonly failures: number;
  readonly warnings: number;
  /** Null when the rule was not checked; never null for holds or violated (docs/runs.md `coverage`). */
  readonly coverage: CoverageName | null;
  /** Set when `coverage` is partial or thin. */
  readonly coverageDetail: CoverageDetail | null;
}

export interface FindingRecord {
  readonly ordinal: number;
  readonly rule: string;
  readonly severity: 'failure' | 'warning' | 'info';
  readonly summary: string;
  readonly at: number | null;
  /** The catalogue id it matched, `unknown` for a failure that matched none, null for other findings without one. */
  readonly signature: string | null;
  readonly subject: Readonly<Record<string, unknown>>;
  /** The cause chain's step titles, in order. */
  readonly cause: readonly string[];
  /** Release components whose changed images the finding's config diff names (e.g. `pod`). */
  readonly components: readonly string[];
}

export interface ReleaseChangeRecord {
  readonly component: string;
  readonly from: string | null;
  readonly to: string | null;
}

export interface OperatorLevelRecord {
  readonly operator: string;
  readonly at: number;
  /** From the update's start to the operator reporting the new version. */
  readonly sinceStartMs: number | null;
}

export interface PoolRolloutRecord {
  readonly pool: string;
  /** The rendered config the pool rolled to for the update. */
  readonly config: string;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly rolloutMs: number | null;
  /** From machine-config's level report to this pool's real finish: positive when it reported early. */
  readonly levelGapMs: number | null;
}

export interface RunRecord {
  readonly id: string;
  readonly source: string;
  readonly identity: 'prow' | 'content';
  readonly job: string | null;
  readonly buildId: string | null;
  readonly platform: string | null;
  readonly fromVersion: string | null;
  readonly toVersion: string | null;
  readonly fromImage: string | null;
  readonly toImage: string | null;
  /** From → to minor, `4.9→4.10`. */
  readonly stream: string | null;
  readonly runStart: number | null;
  readonly runEnd: number | null;
  readonly updateStart: number | null;
  readonly updateEnd: number | null;
  readonly updateMs: number | null;
  readonly verdict: string;
  /** Whether the new rendered configs carry release-image-version (MCO PR #2918): the fix is in. */
  readonly mcoFix: 'present' | 'absent' | 'unknown';
  /** Config-reaching release components that changed, sorted, joined by `+` (`pod`); `` for none; null when the releases are unknown. */
  readonly configChanged: string | null;
  /** Config-reaching release components present in both releases and unchanged, same form. */
  readonly configUnchanged: string | null;
  readonly analyzer: string;
  readonly rules: readonly RuleStateRecord[];
  readonly findings: readonly FindingRecord[];
  readonly releaseChanges: readonly ReleaseChangeRecord[];
  readonly operators: readonly OperatorLevelRecord[];
  readonly pools: readonly PoolRolloutRecord[];
}
