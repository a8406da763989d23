/**
 * A reporter that ends the run with one line per reason tests were skipped, e.g. "197 skipped: public
 * fixtures not found (...)", so that a run that checked less than it could says what and why. A test
 * gives its reason in its name, as `(skipped: REASON)` on itself or an enclosing describe (the
 * helpers below, describeFixtures, describeKubectl and describeBrowser do that), or as the note of
 * `ctx.skip(note)`. A skip with neither is counted under "no reason given", so it shows.
 */
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

const NAMED = /\(skipped: ([^()]*(?:\([^()]*\)[^()]*)*)\)/g;

/** The reason a skipped test gives: its ctx.skip note, else the innermost `(skipped: …)` in its names. */
export function skipReason(test: Pick<TestCase, 'fullName' | 'options' | 'result'>): string {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  const named = [...test.fullName.matchAll(NAMED)].at(-1)?.[1];
  if (named !== undefined) return named;
  const own = /^skipped: (.+)$/.exec(test.fullName.split(' > ').at(-1) ?? '')?.[1];
  if (own !== undefined) return own;
  return test.options.mode === 'todo' ? 'still to do' : 'no reason given (or not selected: -t, .only)';
}

export default class SkipSummary implements Reporter {
  private ctx: Vitest | undefined;

  onInit(ctx: Vitest): void {
    this.ctx = ctx;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, number>();
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) {
        const reason = skipReason(test);
        counts.set(reason, (counts.get(reason) ?? 0) + 1);
      }
    }
    const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} skipped: ${reason}`);
    if (lines.length === 0) return;
    const log = (line: string) => (this.ctx ? this.ctx.logger.log(line) : process.stdout.write(`${line}\n`));
    for (const line of lines) log(line);
  }
}
