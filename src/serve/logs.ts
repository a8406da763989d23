/**
 * Pod logs, read safely from files that stay on disk after the server starts. A log file is pinned at
 * start (its real path, device and inode numbers, size and status change time); a request opens that path with O_NOFOLLOW
 * and O_NONBLOCK and serves it only when it is still the same regular file: a log swapped for a
 * symbolic link (to /etc/passwd, say), a FIFO (which would block the open), a device or another file
 * after start is refused. The bytes are streamed with backpressure, never read whole, and at most
 * `maxActive` logs are streamed at once; more requests wait in a bounded queue, and past it get 429
 * Too Many Requests with Retry-After, as the API server answers past its max-requests-inflight.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { LogFiles } from '../sources/index.js';
import { ApiError } from './status.js';

/** A log file as it was when the server started. */
interface PinnedFile {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  /** Status change time: a file put at the same inode number (freed and reused) has a new one. */
  readonly ctimeMs: number;
  readonly size: number;
}

export interface PinnedLogs {
  readonly current?: PinnedFile;
  readonly previous?: PinnedFile;
}

/** The file at `path` as it is now (symbolic links inside an input resolved once), or undefined. */
async function pinFile(path: string | undefined): Promise<PinnedFile | undefined> {
  if (path === undefined) return undefined;
  try {
    const real = await realpath(path);
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    return { path: real, dev: info.dev, ino: info.ino, ctimeMs: info.ctimeMs, size: info.size };
  } catch {
    return undefined;
  }
}

/** Pin every log of the index; one that is already gone or not a regular file is left out. */
export async function pinLogs(logs: ReadonlyMap<string, LogFiles>): Promise<Map<string, PinnedLogs>> {
  const out = new Map<string, PinnedLogs>();
  for (const [key, files] of logs) {
    const current = await pinFile(files.current);
    const previous = await pinFile(files.previous);
    if (!current && !previous) continue;
    out.set(key, { ...(current ? { current } : {}), ...(previous ? { previous } : {}) });
  }
  return out;
}

function changed(): ApiError {
  return new ApiError(
    500,
    'InternalError',
    'the log file changed on disk after the server started (no longer the same regular file): not served',
  );
}

/** Open a pinned file only if it is still that regular file: no link followed, no FIFO waited on. */
async function openPinned(f: PinnedFile): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(f.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw changed();
  }
  try {
    const info = await handle.stat();
    const same =
      info.dev === f.dev && info.ino === f.ino && info.ctimeMs === f.ctimeMs && info.size === f.size;
    if (!info.isFile() || !same) throw changed();
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** Where the last `lines` lines start, looking back at most `cap` bytes (then: the last `cap` bytes). */
async function tailStart(handle: FileHandle, size: number, lines: number, cap: number): Promise<number> {
  if (lines === 0) return size;
  const floor = Math.max(0, size - cap);
  const chunk = Buffer.alloc(64 * 1024);
  let pos = size;
  let seen = 0;
  // A last line without its newline is a line too; the file's final newline ends the last line.
  let skipFinal = true;
  while (pos > floor) {
    const len = Math.min(chunk.length, pos - floor);
    pos -= len;
    const { bytesRead } = await handle.read(chunk, 0, len, pos);
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (chunk[i] !== 0x0a) {
        skipFinal = false;
        continue;
      }
      if (skipFinal) {
        skipFinal = false;
        continue;
      }
      seen += 1;
      if (seen === lines) return pos + i + 1;
    }
  }
  return floor;
}

export interface LogRequest {
  readonly file: PinnedFile;
  /** tailLines, when given. */
  readonly tailLines?: number;
  /** The most bytes sent (limitBytes, capped by the server's own limit). */
  readonly cap: number;
  /** A client that reads nothing for this long is cut. */
  readonly stallMs: number;
}

/** At most `maxActive` at once, `maxWaiting` more in line; past that, 429. */
export class LogGate {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly maxActive: number,
    readonly maxWaiting: number,
    /** Longest wait in line before 429 (a socket waiting idle would be cut by the idle timeout). */
    readonly maxWaitMs: number,
  ) {}

  get active(): number {
    return this.#active;
  }

  /** A slot, once one is free; release it exactly once. Rejects with 429 when the line is full. */
  acquire(res: ServerResponse): Promise<() => void> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      this.#waiting.shift()?.();
    };
    if (this.#active < this.maxActive) {
      this.#active += 1;
      return Promise.resolve(release);
    }
    const busy = () => {
      res.setHeader('Retry-After', '1');
      return new ApiError(
        429,
        'TooManyRequests',
        'too many pod log requests at once, please try again later',
        {
          retryAfterSeconds: 1,
        },
      );
    };
    if (this.#waiting.length >= this.maxWaiting) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        res.off('close', gone);
        const i = this.#waiting.indexOf(go);
        if (i !== -1) this.#waiting.splice(i, 1);
      };
      const go = () => {
        leave();
        this.#active += 1;
        resolve(release);
      };
      const gone = () => {
        leave();
        reject(new ApiError(499, 'ClientClosedRequest', 'the client went away'));
      };
      const timer = setTimeout(() => {
        leave();
        reject(busy());
      }, this.maxWaitMs);
      res.once('close', gone);
      this.#waiting.push(go);
    });
  }
}

/**
 * Stream one log: from the start (or where its last `tailLines` lines start) up to `cap` bytes, as the
 * client reads them. Resolves when the response is done or abandoned.
 */
export async function sendLog(res: ServerResponse, req: LogRequest): Promise<void> {
  const handle = await openPinned(req.file);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void handle.close().catch(() => undefined);
  };
  let from: number;
  let end: number;
  try {
    const size = (await handle.stat()).size;
    from = req.tailLines !== undefined ? await tailStart(handle, size, req.tailLines, req.cap) : 0;
    end = Math.min(size, from + req.cap);
  } catch (err) {
    close();
    throw err;
  }
  if (res.destroyed) {
    close();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': end - from });
  if (end <= from) {
    close();
    res.end();
    return;
  }
  await new Promise<void>((resolve) => {
    const stream = handle.createReadStream({
      start: from,
      end: end - 1,
      highWaterMark: 64 * 1024,
      autoClose: false,
    });
    let stall: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(stall);
      stall = setTimeout(() => res.destroy(), req.stallMs);
    };
    const finish = () => {
      clearTimeout(stall);
      stream.destroy();
      close();
      resolve();
    };
    stream.on('data', (chunk) => {
      arm();
      if (!res.write(chunk)) {
        stream.pause();
        res.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => {
      res.end();
      finish();
    });
    // Read short (the file was cut meanwhile) or unreadable: the client sees the body end early.
    stream.on('error', () => {
      res.destroy();
      finish();
    });
    res.on('close', finish);
    arm();
  });
}
