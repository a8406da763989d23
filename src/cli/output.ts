import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  realpathSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFile as writeFd,
} from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { InputError, onInterrupt } from '../model/index.js';
import { isClosedPipe } from './pipe.js';

/**
 * The command line of this run, so that `--out` can tell an input from an output. Every path-looking
 * argument except the value of a flag that names an output file counts as an input: atlevel never
 * replaces one.
 */
let commandLine: readonly string[] = [];

/** Record the run's arguments (cli/main.ts calls this once, before any command runs). */
export function noteCommandLine(argv: readonly string[]): void {
  commandLine = argv;
}

/**
 * The flags whose value is a file atlevel writes. `serve --kubeconfig-out kc` run a second time
 * replaces the kubeconfig it wrote the first time; counted as an input, kc was refused.
 */
const OUTPUT_FLAGS: ReadonlySet<string> = new Set(['--out', '--kubeconfig-out']);

/** The arguments that may name inputs: everything but the output flags' own values. */
function inputArguments(): string[] {
  const out: string[] = [];
  for (let i = 0; i < commandLine.length; i++) {
    const arg = commandLine[i]!;
    if (OUTPUT_FLAGS.has(arg)) {
      i++;
      continue;
    }
    const eqAt = arg.indexOf('=');
    if (arg.startsWith('--') && eqAt !== -1 && OUTPUT_FLAGS.has(arg.slice(0, eqAt))) continue;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    out.push(eq === -1 ? arg : arg.slice(eq + 1));
  }
  return out;
}

function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Refuse an `--out` target that is not a regular file (a device, FIFO, socket, folder or symlink:
 * the rename would replace the node itself, so `--out /dev/null` as root would destroy /dev/null),
 * or that is one of the run's inputs, or a file inside an input folder.
 */
function checkTarget(outPath: string, flag = '--out'): void {
  let info: Stats;
  try {
    info = lstatSync(outPath);
  } catch {
    return; // nothing there yet: a new file replaces nothing
  }
  if (!info.isFile()) {
    throw new InputError(
      outPath,
      `${flag} names ${kindOf(info)}, not a regular file`,
      `atlevel only replaces regular files; name a new or regular file${flag === '--out' ? ', or leave out --out to print to stdout' : ''}`,
    );
  }
  const target = realpathSync(outPath);
  for (const arg of inputArguments()) {
    let input: Stats;
    try {
      input = statSync(arg);
    } catch {
      // Not a path: perhaps an oc examples case, named by the prefix of its files (CASE-cv.yaml, …).
      if (isCaseFile(arg, target)) {
        throw new InputError(
          outPath,
          `${flag} names a file of the input case ${arg}`,
          'write the report somewhere else; atlevel never overwrites its inputs',
        );
      }
      continue;
    }
    const same = input.dev === info.dev && input.ino === info.ino;
    const inside = input.isDirectory() && target.startsWith(`${realpathSync(arg)}${sep}`);
    if (same || inside) {
      throw new InputError(
        outPath,
        same
          ? `${flag} names one of the inputs`
          : `${flag} would replace a file inside the input folder ${arg}`,
        'write the report somewhere else; atlevel never overwrites its inputs',
      );
    }
  }
}

/** Whether `target` (a real path) is one of the files of the oc examples case `prefix`: `PREFIX-*`. */
function isCaseFile(prefix: string, target: string): boolean {
  let folder: string;
  try {
    folder = realpathSync(dirname(resolve(prefix)));
  } catch {
    return false;
  }
  return dirname(target) === folder && basename(target).startsWith(`${basename(prefix)}-`);
}

const writeAll = promisify(writeFd) as (fd: number, text: string) => Promise<void>;

/**
 * Write a report to `--out FILE` or stdout. A file is written to a temporary name beside it and
 * renamed, so a failure never leaves half a report (nor clobbers the previous one); an interrupt
 * removes the temporary file; and the target must be a regular file that is not an input.
 */
export async function emit(text: string, outPath: string | undefined): Promise<void> {
  if (outPath === undefined || outPath === '-') {
    await new Promise<void>((resolve, reject) => {
      process.stdout.write(text, (err) => (err && !isClosedPipe(err) ? reject(err) : resolve()));
    });
    return;
  }
  await writeOutFile(text, outPath);
}

/**
 * Refuse, before any work, a file that `flag` names and that writeOutFile would refuse: not a
 * regular file, an input, or in a folder that does not exist.
 */
export function checkOutFile(outPath: string, flag: string): void {
  checkTarget(outPath, flag);
  if (!existsSync(dirname(resolve(outPath)))) {
    throw new InputError(
      outPath,
      `${flag} names a file in a folder that does not exist`,
      'create the folder first',
    );
  }
}

/** emit's file half, for any flag that names an output file (`--kubeconfig-out`). */
export async function writeOutFile(text: string, outPath: string, flag = '--out'): Promise<void> {
  checkTarget(outPath, flag);
  const tmp = join(dirname(resolve(outPath)), `.${randomBytes(6).toString('hex')}.atlevel.tmp`);
  let fd: number | undefined;
  let created = false;
  let stop = (): void => undefined;
  try {
    // `wx`: never follow or reuse something already at the temporary name. Created synchronously
    // and only then guarded, so an interrupt never finds the file not there yet while an
    // asynchronous open is still on its way to create it (which left it behind).
    fd = openSync(tmp, 'wx');
    created = true;
    stop = onInterrupt(() => unlinkSync(tmp));
    await writeAll(fd, text);
    closeSync(fd);
    fd = undefined;
    // Check again just before the rename: the target may have changed while the report was written.
    checkTarget(outPath, flag);
    await rename(tmp, outPath);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    // Only a file this call made: a name that was taken (wx) is someone else's.
    if (created) await unlink(tmp).catch(() => undefined);
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new InputError(
      outPath,
      `cannot write the output file (${code})`,
      'check that the folder exists and is writable',
    );
  } finally {
    stop();
  }
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}
