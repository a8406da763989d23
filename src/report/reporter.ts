/**
 * The shape every reporter has: one command's result in, the whole report out as a string. A command's
 * output formats are one record of these (formats.ts); its `-o` choices are that record's keys.
 * A reporter never computes: everything it prints is in the result.
 */

/** Where the text goes: a terminal (colour, its width) or a file or pipe. */
export interface TextSettings {
  readonly colour: boolean;
  /** Columns to fit. */
  readonly width: number;
}

export type Reporter<Result, Options = TextSettings> = (result: Result, options: Options) => string;

/** Each reporter is imported only when its format is chosen: the HTML page is not loaded for text. */
export type Reporters<Result, Options = TextSettings> = Readonly<
  Record<string, () => Promise<Reporter<Result, Options>>>
>;

/**
 * What a structured format prints: one plain document (objects, arrays, strings, numbers, booleans,
 * null), built once and printed as JSON or YAML (documentFormats). Reporters build the document and
 * print it as separate steps, so a new structured format never parses another's text back.
 */
export type Documenter<Result> = (result: Result) => unknown;

/**
 * `-o json` and `-o yaml` of one document: the same document, printed two ways (issue 39). Each is
 * loaded only when chosen; the YAML printer (report/yaml.ts) is not in the start-up of `-o json`.
 */
export function documentFormats<Result>(load: () => Promise<Documenter<Result>>) {
  return {
    json: async (): Promise<Reporter<Result, unknown>> => {
      const [document, { safeJson }] = await Promise.all([load(), import('../model/index.js')]);
      return (result) => safeJson(document(result));
    },
    yaml: async (): Promise<Reporter<Result, unknown>> => {
      const [document, { safeYaml }] = await Promise.all([load(), import('./yaml.js')]);
      return (result) => safeYaml(document(result));
    },
  };
}

/** The YAML printer of documentFormats, for a stream of documents (`watch -o yaml`); loaded on call. */
export async function yamlPrinter(): Promise<(document: unknown) => string> {
  return (await import('./yaml.js')).safeYaml;
}

/** The `-o` choices of a record, in its order. */
export function formatsOf<R extends Reporters<never, never>>(reporters: R): (keyof R & string)[] {
  return Object.keys(reporters) as (keyof R & string)[];
}

export async function render<Result, Options>(
  reporters: Reporters<Result, Options>,
  format: string,
  result: Result,
  options: Options,
): Promise<string> {
  const load = Object.hasOwn(reporters, format) ? reporters[format] : undefined;
  if (load === undefined) throw new Error(`no reporter for format ${format}`);
  return (await load())(result, options);
}
