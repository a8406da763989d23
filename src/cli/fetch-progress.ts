/**
 * The progress bar of URL downloads: bytes and files, on stderr, only when stderr is a terminal (a
 * redirected stderr gets nothing, so logs and tests stay clean).
 */
import cliProgress from 'cli-progress';
import { formatBytes, type ProgressSink } from '../sources/index.js';

export function fetchProgress(stream: NodeJS.WriteStream = process.stderr): ProgressSink | undefined {
  if (!stream.isTTY) return undefined;
  let bar: cliProgress.SingleBar | undefined;
  let bytes = 0;
  let files = 0;
  let totalFiles = 0;
  let lastDraw = 0;
  const draw = (force = false) => {
    const now = Date.now();
    if (!bar || (!force && now - lastDraw < 100)) return;
    lastDraw = now;
    bar.update(bytes, { done: formatBytes(bytes), files, totalFiles });
  };
  return {
    start(totalBytes, total) {
      totalFiles = total;
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: 'fetching [{bar}] {done} of {size} | {files}/{totalFiles} files | eta {eta_formatted}',
          hideCursor: true,
          clearOnComplete: true,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(totalBytes, 0, { done: formatBytes(0), size: formatBytes(totalBytes), files: 0, totalFiles });
    },
    bytes(n) {
      bytes += n;
      draw();
    },
    fileDone() {
      files += 1;
      draw(files === totalFiles);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
