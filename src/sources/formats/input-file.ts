/**
 * One file named as an input on its own (a MachineConfig file for `diff`, a release info file, a
 * simulate scenario): the same edge as every input of the pipeline. It must be a regular file (a FIFO
 * or a device is refused before it is opened, so nothing blocks), its bytes are decoded by DECODERS
 * with the run's budget, binary data is refused from its first bytes, and the parsed tree is held to
 * the budget's node and depth limits, counted after YAML alias expansion. Errors are one line naming
 * the file.
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Budget } from '../../model/index.js';
import { InputError } from '../../model/index.js';
import { formatBytes, MAX_PARSED_BYTES, readAllText } from '../bytes.js';
import { withoutCompressionSuffix } from '../decoders/index.js';
import { type Document, parseDocuments } from '../documents.js';
import { fsProblem } from '../folder.js';

export interface InputFileOptions {
  /** The run's budget (model/budget.ts); the default limits when absent. */
  readonly budget?: Budget;
  /** Refuse a file (or its decoded bytes) larger than this; at most what is parsed whole. */
  readonly maxBytes?: number;
  /** How errors name the file, when not by its path (a URL's cached copy). */
  readonly display?: string;
}

/** The file's stat, as an InputError when it cannot be had. */
export async function statInput(path: string, display = path): Promise<Stats> {
  try {
    return await stat(path);
  } catch (err) {
    throw new InputError(display, fsProblem(err));
  }
}

/** The decoded text of one regular file. */
export async function readInputText(path: string, opts: InputFileOptions = {}): Promise<string> {
  const display = opts.display ?? path;
  const info = await statInput(path, display);
  if (info.isDirectory()) throw new InputError(display, 'is a folder');
  if (!info.isFile()) throw new InputError(display, 'not a regular file (a FIFO, socket or device)');
  const maxBytes = Math.min(opts.maxBytes ?? MAX_PARSED_BYTES, MAX_PARSED_BYTES);
  if (info.size > maxBytes) {
    throw new InputError(
      display,
      `size exceeds ${formatBytes(maxBytes)}, the most atlevel parses as one document`,
    );
  }
  const stream = createReadStream(path);
  try {
    return await readAllText(stream, {
      file: display,
      name: display.slice(display.lastIndexOf('/') + 1),
      maxBytes,
      nameSaysGzip: false,
      ...(opts.budget ? { budget: opts.budget } : {}),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (!(err instanceof InputError) && code !== undefined) throw new InputError(display, fsProblem(err));
    throw err;
  } finally {
    stream.destroy();
  }
}

/** The YAML or JSON documents of one regular file (JSON for `.json` names), within the budget. */
export async function readInputDocuments(path: string, opts: InputFileOptions = {}): Promise<Document[]> {
  const display = opts.display ?? path;
  const text = await readInputText(path, opts);
  const jsonByName = /\.json$/i.test(withoutCompressionSuffix(display));
  return parseDocuments(text, display, jsonByName, opts.budget);
}
