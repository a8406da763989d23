/**
 * `atlevel cache fetch|ls|prune`: filling the URL download cache ahead of time (to work offline
 * later), what it holds (docs/urls.md), and removing entries not used for a while. Exit codes: 0
 * done, 2 bad usage or a URL that cannot be fetched.
 */
import { Argument, type Command } from '@commander-js/extra-typings';
import { plural, UsageError } from '../model/index.js';
import { formatBytes, looksLikeUrl, urlClient } from '../sources/index.js';
import { completeWith } from './complete-hints.js';
import { EXIT, type ExitBox } from './exit.js';
import { emit } from './output.js';
import { mustGatherFlag, type RemoteFlags, remoteFlags, remoteOptions } from './remote-flags.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export function defineCache(cache: Command, exit: ExitBox): void {
  mustGatherFlag(
    remoteFlags(
      cache
        .command('fetch')
        .description(
          'fetch into the cache what analyze would read of each CI URL (a run, a folder or one file), to work --offline later',
        )
        .addArgument(
          completeWith(new Argument('<urls...>', 'Prow, gcsweb, storage.googleapis.com or gs:// URLs'), {
            files: false,
          }),
        ),
    ),
  ).action(async (urls, flags) => {
    const notUrl = urls.find((u) => !looksLikeUrl(u));
    if (notUrl !== undefined)
      throw new UsageError(`${JSON.stringify(notUrl)} is not a CI URL: cache fetch takes URLs only`);
    const { RemoteSession } = await urlClient();
    const { onStats, ...opts } = await remoteOptions(flags as RemoteFlags);
    const session = new RemoteSession(opts);
    const lines: string[] = [];
    try {
      for (const url of urls) {
        const input = await session.open(url);
        if (input.kind === 'file') lines.push(`${input.display}: ${formatBytes(input.size)}`);
        else lines.push(...input.notes);
      }
    } finally {
      session.close();
    }
    onStats(session.stats);
    const s = session.stats;
    lines.push(
      `cache ${session.cache.root}: ${s.downloadedFiles} downloaded (${formatBytes(s.downloadedBytes)}), ${s.cachedFiles} already cached`,
    );
    process.stderr.write(`${lines.map((l) => `atlevel: ${l}`).join('\n')}\n`);
    exit.code = EXIT.ok;
  });
  cache
    .command('ls')
    .description('list cached objects (gs:// name, generation, size, last use) and cached run listings')
    .option('--cache-dir <dir>', 'the cache folder (default $XDG_CACHE_HOME/atlevel)')
    .option('--out <file>', 'write the list to FILE instead of stdout')
    .action(async (flags) => {
      const { ObjectCache, cacheRoot } = await urlClient();
      const c = new ObjectCache(cacheRoot(flags.cacheDir));
      const { objects, trees, partial } = await c.list();
      const lines = [`cache ${c.root}`];
      let bytes = 0;
      for (const o of objects) {
        if (!o.object) {
          lines.push(`  broken entry ${o.dir} (removed by prune)`);
          continue;
        }
        bytes += o.bytes;
        const gen = o.object.generation ? `#${o.object.generation}` : '';
        lines.push(
          `  gs://${o.object.bucket}/${o.object.name}${gen}  ${formatBytes(o.bytes)}  used ${new Date(o.usedAt).toISOString()}`,
        );
      }
      for (const t of trees) {
        const r = t.record;
        lines.push(
          r
            ? `  listing gs://${r.bucket}/${r.key} (${r.kind}, ${plural(r.objects.length, 'object')}, listed ${r.listedAt})`
            : `  broken listing ${t.path} (removed by prune)`,
        );
      }
      if (partial.length > 0)
        lines.push(`  ${plural(partial.length, 'unfinished download folder')} in tmp/ (removed by prune)`);
      lines.push(
        `${plural(objects.length, 'object')}, ${formatBytes(bytes)}; ${plural(trees.length, 'run listing')}`,
      );
      await emit(`${lines.join('\n')}\n`, flags.out);
      exit.code = EXIT.ok;
    });
  cache
    .command('prune')
    .description('remove cached objects and listings not used for a while, and unfinished downloads')
    .option('--cache-dir <dir>', 'the cache folder (default $XDG_CACHE_HOME/atlevel)')
    .option('--older-than <days>', 'remove what was not used for this many days', '30')
    .option('--all', 'empty the cache')
    .action(async (flags) => {
      const days = Number(flags.olderThan);
      if (!Number.isFinite(days) || days < 0) {
        throw new UsageError(
          `--older-than ${JSON.stringify(flags.olderThan)} must be a number of days (e.g. 30, 0.5)`,
        );
      }
      const { ObjectCache, cacheRoot, pruneCache } = await urlClient();
      const c = new ObjectCache(cacheRoot(flags.cacheDir));
      const r = await pruneCache(c, { olderThanMs: days * DAY_MS, all: flags.all === true });
      process.stderr.write(
        `atlevel: removed ${plural(r.removedObjects, 'object')} (${formatBytes(r.removedBytes)}), ${plural(r.removedTrees, 'run listing')}, ${plural(r.removedPartial, 'unfinished download')}; kept ${plural(r.keptObjects, 'object')}\n`,
      );
      exit.code = EXIT.ok;
    });
}
