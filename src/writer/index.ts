/**
 * writer/ is the one generator of cluster content on disk: it turns what a producer knows about a
 * cluster (its objects as Kubernetes JSON, kind by kind; origin's monitor records; the upgrade test's
 * log; the two releases) into the CI artifact layout atlevel's sources read, and puts a run folder on
 * disk atomically. The simulator (sim/), the live watcher's `--record` (watch/), the large-run benches
 * (bench/large-run*.ts) and the bundled examples (scripts/make-examples.ts, which runs the simulator)
 * all write through it, so a file name or a layout change is made here once. A kind's file name comes
 * from its descriptor (model/kinds/ `gatherExtra`), the text formats from artifacts/. It imports
 * neither sim nor watch: producers hand it plain content.
 */
export { buildLogText } from './build-log.js';
export { ciRunFiles } from './ci-run.js';
export { writeRunFolder } from './folder.js';
