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
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InputError, onInterrupt } from '../model/index.js';
import { isClosedPipe } from './pipe.js';

/**
 * The command line of this run, so that `--out` can tell an input from an output. Every path-looking
 * argument except the `--out` value counts as an input: atlevel never replaces one.
 */
let commandLine: readonly string[] = [];

/** Record the run's arguments (cli/main.ts calls this once, before any command runs). */
export function noteCommandLine(argv: readonly string[]): void {
  commandLine = argv;
}

/**
 * The arguments that may name inputs: everything but the value of `--out` and of `flag` (the flag
 * whose target is being checked: its own value is what it writes, not something read; `flag` may
 * also name a setting that is no flag, such as ATLEVEL_DB, which excludes nothing).
 */
function inputArguments(flag: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < commandLine.length; i++) {
    const arg = commandLine[i]!;
    const own = flag.startsWith('--') && arg === flag;
    if (arg === '--out' || own) {
      i++;
      continue;
    }
    if (arg.startsWith('--out=') || (flag.startsWith('--') && arg.startsWith(`${flag}=`))) continue;
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
  refuseInput(outPath, flag, 'write the report somewhere else; atlevel never overwrites its inputs', {
    inside: 'would replace a file inside',
  });
}

/** Refuse `path` (the value of `flag`) when it is an input, a file of an input case, or inside an input folder. */
function refuseInput(
  path: string,
  flag: string,
  hint: string,
  { inside, extra = [] }: { inside: string; extra?: readonly string[] },
): void {
  const input = inputHolding(path, flag, extra);
  if (!input) return;
  throw new InputError(
    path,
    input.relation === 'case'
      ? `${flag} names a file of the input case ${input.arg}`
      : input.relation === 'same'
        ? `${flag} names one of the inputs`
        : `${flag} ${inside} the input folder ${input.arg}`,
    hint,
  );
}

/** How a path to be written relates to an input: it is the input, inside it, or a file of an oc examples case. */
interface HeldBy {
  readonly arg: string;
  readonly relation: 'same' | 'inside' | 'case';
}

/**
 * The path with every part that exists resolved (symbolic links, `..`) and the rest appended: where
 * a file or folder made at `path` would really be.
 */
function realPathToBe(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realPathToBe(parent), basename(abs));
  }
}

/**
 * The input that `target` (a path `flag` is about to write, existing or not) is, or lies inside:
 * the inputs are the command line's other arguments (every path-looking one counts: atlevel never
 * writes into what it reads) and `extra`, paths read that the command line only names indirectly
 * (the runs of an ingest listing file).
 */
function inputHolding(target: string, flag: string, extra: readonly string[] = []): HeldBy | undefined {
  let info: Stats | undefined;
  try {
    info = statSync(target);
  } catch {
    info = undefined; // not there yet: only "inside" can hold
  }
  const real = realPathToBe(target);
  for (const arg of [...inputArguments(flag), ...extra]) {
    let input: Stats;
    try {
      input = statSync(arg);
    } catch {
      // Not a path: perhaps an oc examples case, named by the prefix of its files (CASE-cv.yaml, …).
      if (isCaseFile(arg, real)) return { arg, relation: 'case' };
      continue;
    }
    if (info && input.dev === info.dev && input.ino === info.ino) return { arg, relation: 'same' };
    if (input.isDirectory() && real.startsWith(`${realpathSync(arg)}${sep}`))
      return { arg, relation: 'inside' };
  }
  return undefined;
}

/**
 * Refuse a folder `flag` names for atlevel to keep data in (`ingest --db`'s run store) when it is one
 * of the inputs or inside one, whether it exists yet or not: what atlevel writes there would be read
 * back as input, by this run or the next. `extra`: inputs the command line names only indirectly.
 */
export function checkDataFolder(
  path: string,
  flag: string,
  hint: string,
  extra: readonly string[] = [],
): void {
  refuseInput(path, flag, hint, { inside: 'is inside', extra });
}

/** The real path of a data folder, or undefined when it does not exist yet (then nothing is inside it). */
function realFolder(folder: string): string | undefined {
  try {
    return realpathSync(folder);
  } catch {
    return undefined;
  }
}

/** Whether the real path `real` is the folder whose real path is `root`, or lies inside it. */
function isWithin(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * Refuse an input that lies inside the data folder `flag` names (`ingest STORE/pgdata --db STORE`):
 * the command would read the store's own files as a run while it writes them. The reverse of
 * checkDataFolder, which refuses the folder inside an input (and the folder named as an input).
 * Compared by real path, so a symbolic link or a trailing slash on either side changes nothing. A
 * folder that does not exist yet holds nothing; an input that is no path (a URL) or does not exist is
 * left to the command, which says so in its own words.
 */
export function checkInputsOutside(
  folder: string,
  flag: string,
  inputs: readonly string[],
  hint: string,
): void {
  const root = realFolder(folder);
  if (root === undefined) return;
  for (const input of inputs) {
    let real: string;
    try {
      real = realpathSync(input);
    } catch {
      continue;
    }
    if (isWithin(real, root))
      throw new InputError(input, `the input is inside the run store ${folder} (${flag})`, hint);
  }
}

/**
 * Refuse a file `outFlag` names inside the data folder `flag` names (`stats --out STORE/pgdata/…`),
 * whether the file exists yet or not: the folder is the store's database, and a report renamed over
 * one of its files destroys it. The --out checks catch this only when the folder is on the command
 * line; this holds for ATLEVEL_DB and the default store too.
 */
export function checkOutFileOutside(outPath: string, outFlag: string, folder: string, flag: string): void {
  const root = realFolder(folder);
  if (root === undefined || !isWithin(realPathToBe(outPath), root)) return;
  throw new InputError(
    outPath,
    `${outFlag} is inside the run store ${folder} (${flag})`,
    "write the report outside the run store: its files are the store's own database",
  );
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
  // Loaded for a file only: every command prints through emit, and most print to stdout.
  const [{ randomBytes }, { rename, unlink }, { promisify }] = await Promise.all([
    import('node:crypto'),
    import('node:fs/promises'),
    import('node:util'),
  ]);
  const writeAll = promisify(writeFd) as (fd: number, text: string) => Promise<void>;
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
