/**
 * explain/ joins the other analyses into a cause chain for a finding: which rendered config the pool
 * rolled to and when it appeared, what changed in it (machineconfig/), which release component caused
 * that (release/), and which known failure signature the whole matches (the catalogue in signatures/, loaded by src/signatures).
 */
export { explainFindings } from './explain.js';
