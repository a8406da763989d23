/**
 * How a catalogue entry matches: a condition over named facts of a finding (computed by explain/
 * from the two rendered configs and the two releases), e.g. `{ "fact": "osImageURL", "is": ["same"] }`,
 * combined with `all` / `any` / `not`. A fact that was not computed has the value `unknown`.
 */
import type { CatalogueEntry, Condition } from './catalogue.js';

/** Fact name → value (`same`, `changed`, `unknown`, `present`, `absent`, ...). */
export type Facts = ReadonlyMap<string, string>;

function evaluate(c: Condition, facts: Facts): boolean {
  if ('fact' in c) return c.is.includes(facts.get(c.fact) ?? 'unknown');
  if ('all' in c) return c.all.every((x) => evaluate(x, facts));
  if ('any' in c) return c.any.some((x) => evaluate(x, facts));
  return !evaluate(c.not, facts);
}

/** The first entry (in catalogue order) whose condition holds. */
export function matchCatalogue(
  catalogue: readonly CatalogueEntry[],
  facts: Facts,
): CatalogueEntry | undefined {
  return catalogue.find((e) => evaluate(e.match, facts));
}
