/**
 * signatures/ is the catalogue of known failure signatures as data: one JSON file per signature in
 * the repository's signatures/ folder (id, label, description, how it matches, upstream bug and
 * fix), a loader that validates them, and the matcher that explain/ and the run store use. Adding a
 * signature is one file; docs/runs.md describes the format.
 */
export { loadCatalogue, parseCatalogueEntry, signatureCatalogue } from './catalogue.js';
export { type ChangedImages, changedImagesWords, describeSignature } from './describe.js';
export { matchCatalogue } from './match.js';
