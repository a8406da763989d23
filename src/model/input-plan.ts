/**
 * An input's plan, as sources/plan.ts makes it and `atlevel inputs` prints it (docs/inputs.md): what
 * an argument is, which layouts it follows, what is read from it and by which reader, what serve
 * serves as it is, what is ignored and why, and the runs it holds. Shared here so that the reporters
 * print it without reaching into the sources.
 */

/** What an argument is, as the opener that claimed it read it. */
export type InputKind = 'folder' | 'archive' | 'file' | 'oc examples case' | 'URL' | 'live cluster';

/** One run an input holds, as ingest stores it. */
export interface PlannedRun {
  /** What the loader is given: a path or a URL. */
  readonly source: string;
  /** `case`: an oc examples case, named by its files' prefix (`examples/CASE` for `CASE-cv.yaml`...). */
  readonly kind: 'url' | 'archive' | 'folder' | 'file' | 'case';
  /** A folder reached through a symbolic link: where it really is (its path may name its Prow run). */
  readonly real?: string;
}

/** A file a layout claims: its path in the input, its reader, and the kind it holds when its place says. */
export interface ClaimedFile {
  readonly path: string;
  /** The layout that claimed it (`CI run`, `must-gather`, ...; `single file` for a file named alone). */
  readonly layout: string;
  readonly reader: string;
  readonly kind?: string;
  /** The hosted cluster (a hypershift dump's `hostedcluster-NAME/`) whose file it is. */
  readonly guest?: string;
}

/** A file serve answers with as it is: objects of kinds atlevel does not model, or a pod's log. */
interface ServedAsIs {
  readonly path: string;
  readonly as: 'objects' | 'log';
  readonly guest?: string;
}

/** One resource a live source reads: its kind, API path and scope. */
export interface LiveResourcePlan {
  readonly kind: string;
  readonly path: string;
  /** `cluster`, `all` namespaces, or only some `namespaces`. */
  readonly scope: string;
  /** With scope `namespaces`: which, or what decides them. */
  readonly namespaces?: string;
  /** Why a refusal to list it is only noted. */
  readonly optional?: string;
}

/** What reading a live cluster does: where, and which kinds it lists (analyze, status) and watches (watch). */
export interface LivePlan {
  readonly server: string;
  readonly context: string;
  readonly lists: readonly LiveResourcePlan[];
  readonly watches: readonly LiveResourcePlan[];
  /** The only verbs sent: a live source never writes to a cluster. */
  readonly verbs: readonly string[];
}

export interface InputPlan {
  /** The argument as given (a live cluster: its server). */
  readonly input: string;
  readonly is: InputKind;
  /** `stdin` when the argument was `-` (its content decides `is`). */
  readonly from?: 'stdin';
  /** The layouts recognised, in the order the loader's note names them. */
  readonly layouts: readonly string[];
  /** Every file some layout reads, in path order. */
  readonly claimed: readonly ClaimedFile[];
  /** The files `serve` serves as they are, beside what atlevel models (folders only). */
  readonly served: readonly ServedAsIs[];
  readonly ignored: readonly { readonly path: string; readonly why: string }[];
  /** The runs it holds, as ingest stores them (a live cluster holds none: it is read, not stored). */
  readonly runs: readonly PlannedRun[];
  /** What the loader and run discovery say of it (the notes analyze and ingest print). */
  readonly notes: readonly string[];
  /** A live cluster: where, and what is listed and watched (only ever read: get, list, watch). */
  readonly live?: LivePlan;
}
