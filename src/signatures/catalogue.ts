/**
 * Loads signatures/*.json. The folder sits at the package root, so the same relative URL works from
 * src/ (tests, tsx) and from dist/ (the built CLI). The catalogue ships with atlevel and is read once;
 * a malformed file is a bug in atlevel, reported with the file and the field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import type { Signature } from '../model/index.js';

/** The placeholders an entry's title and detail may hold (describe.ts fills them for each finding). */
const PLACEHOLDERS = ['changedImages'] as const;

/** How an entry matches: a test of one fact, or `all` / `any` / `not` of conditions. */
export type Condition =
  | { readonly fact: string; readonly is: readonly string[] }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };

export interface CatalogueEntry {
  /** What explain/ attaches to a finding (and what `analyze -o json` prints). */
  readonly signature: Signature;
  /** A short name for tables, true of every finding it matches: `embedded-image-only race`. */
  readonly label: string;
  /** Lower first. */
  readonly order: number;
  readonly bug: string | null;
  readonly fix: string | null;
  readonly match: Condition;
  readonly file: string;
}

const condition: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ fact: z.string().min(1), is: z.array(z.string().min(1)).min(1) }),
    z.strictObject({ all: z.array(condition).min(1) }),
    z.strictObject({ any: z.array(condition).min(1) }),
    z.strictObject({ not: condition }),
  ]),
);

const entrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  label: z.string().min(1),
  order: z.number().int(),
  title: z.string().min(1),
  detail: z.string().min(1),
  bug: z.string().url().nullable(),
  fix: z.string().url().nullable(),
  references: z.array(z.string().url()),
  match: condition,
});

const CATALOGUE_DIR = fileURLToPath(new URL('../../signatures/', import.meta.url));

/** One file's content → an entry; throws an Error naming the file and the field. */
export function parseCatalogueEntry(file: string, text: string): CatalogueEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: invalid signature: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const d = parsed.data;
  for (const field of ['title', 'detail'] as const) {
    for (const m of d[field].matchAll(/\{([A-Za-z]+)\}/g)) {
      if (!(PLACEHOLDERS as readonly string[]).includes(m[1] ?? ''))
        throw new Error(
          `${file}: invalid signature: ${field}: unknown placeholder {${m[1]}} (known: ${PLACEHOLDERS.map((x) => `{${x}}`).join(', ')})`,
        );
    }
  }
  return {
    signature: { id: d.id, title: d.title, detail: d.detail, references: d.references },
    label: d.label,
    order: d.order,
    bug: d.bug,
    fix: d.fix,
    match: d.match,
    file,
  };
}

/** Every entry of a folder, in match order; duplicate ids are an error. */
export function loadCatalogue(dir: string = CATALOGUE_DIR): CatalogueEntry[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const entries = files.map((f) => parseCatalogueEntry(join(dir, f), readFileSync(join(dir, f), 'utf8')));
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.signature.id)) throw new Error(`${e.file}: duplicate signature id ${e.signature.id}`);
    seen.add(e.signature.id);
  }
  return entries.sort((a, b) => a.order - b.order || a.signature.id.localeCompare(b.signature.id));
}

let cached: CatalogueEntry[] | undefined;

/** The catalogue shipped with atlevel, loaded on first use. */
export function signatureCatalogue(): readonly CatalogueEntry[] {
  cached ??= loadCatalogue();
  return cached;
}
