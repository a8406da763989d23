/**
 * What sources/url asks of the layouts to choose which objects to fetch (url/select.ts): the planner
 * over LAYOUTS, the CI names and the archive names. The layouts themselves are in layouts/.
 */
export { isArchiveName } from './decoders/index.js';
export { baseName, planFiles, readerByName } from './layouts/index.js';
