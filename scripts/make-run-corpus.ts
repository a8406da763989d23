/**
 * `node --import tsx scripts/make-run-corpus.ts DIR [N]`: write N (default 2000) simulated CI runs
 * under DIR/logs/JOB/BUILD_ID/ with their ground truth, for `atlevel ingest DIR` and `atlevel stats`
 * (docs/runs.md, "A corpus with known ground truth"). It prints the ground truth the stats must match:
 * per policy and per changed-component set, runs and runs in which the race happened.
 */
import { corpusRun, groundTruth, writeCorpusRun } from '../test/runs/corpus.js';

const [dir, count] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: make-run-corpus.ts DIR [N]\n');
  process.exit(2);
}
const n = count === undefined ? 2000 : Number(count);
const truth = new Map<string, { runs: number; race: number }>();
const started = performance.now();
for (let i = 0; i < n; i += 1) {
  const r = corpusRun(dir, i);
  await writeCorpusRun(r);
  const t = await groundTruth(r);
  for (const key of [`policy ${t.policy}`, `policy ${t.policy} · scenario ${t.scenario}`]) {
    const row = truth.get(key) ?? { runs: 0, race: 0 };
    row.runs += 1;
    if (t.violated) row.race += 1;
    truth.set(key, row);
  }
  if ((i + 1) % 100 === 0) process.stderr.write(`  ${i + 1}/${n} runs\n`);
}
process.stdout.write(
  `wrote ${n} runs under ${dir} in ${((performance.now() - started) / 1000).toFixed(1)}s\nground truth (the simulator's own verdict, master pool Updating at CVO completion):\n`,
);
for (const [k, v] of [...truth].sort()) process.stdout.write(`  ${k}: race in ${v.race} of ${v.runs} runs\n`);
