/**
 * What shell completion offers for a value that its definition alone does not say (completion.ts
 * reads choices and placeholders itself): the built-in scenario names beside scenario files, the
 * shells, the command names `atlevel help` takes. Set where the option or argument is defined, so
 * that the completion scripts still come from the definitions. Imports nothing: every command loads it.
 */

export interface ValueHint {
  /** Words to offer. */
  readonly words?: readonly string[];
  /** Whether file names are offered too. */
  readonly files?: boolean;
  /** The value is a command path (`atlevel help release diff`): offer the command names. */
  readonly commands?: boolean;
}

const HINTS = new WeakMap<object, ValueHint>();

/** Attach a completion hint to an Option or Argument; returns it, to chain into addOption/addArgument. */
export function completeWith<T extends object>(target: T, hint: ValueHint): T {
  HINTS.set(target, hint);
  return target;
}

export function hintOf(target: object): ValueHint | undefined {
  return HINTS.get(target);
}
