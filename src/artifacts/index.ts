/**
 * artifacts/ owns the CI artifact layout as text: origin's monitor records and lines, interval
 * JSON, gather-extra Lists, `oc adm release info` and their wall-clock formats. Pure (path → text);
 * it neither reads nor writes files: writer/ composes runs from it and puts them on disk for the
 * simulator, the live watcher's recorder (watch/), the bundled examples and the benches, so neither
 * watch nor a script depends on the simulator for a file format.
 */
export * from './ci-layout.js';
export * from './timefmt.js';
