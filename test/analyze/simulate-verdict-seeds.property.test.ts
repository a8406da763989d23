/**
 * simulate's verdict is analyze's verdict on the run it wrote, as simulate-verdict.property.test.ts
 * checks on one seed per built-in scenario × policy in `npm test`: here on 5 more seeds each, in the
 * end-to-end suite (`npm run test:e2e`; about a minute of CPU).
 */
import { simulateVerdictProperty } from './simulate-verdict.js';

simulateVerdictProperty(5, 20211104);
