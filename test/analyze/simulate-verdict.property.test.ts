/**
 * simulate's verdict is analyze's verdict on the run it wrote (issue 11, section 2): for every
 * built-in scenario × policy, on a sampled seed, `atlevel simulate --artifacts DIR -o json` and
 * `atlevel analyze DIR -o json` give the same verdict and the same exit code; and a run whose ground
 * truth broke the invariant is never anything but `fail`.
 */
import { simulateVerdictProperty } from './simulate-verdict.js';

// One seed per scenario × policy: each is a simulated run written to disk and analysed, about 0.2 s of
// CPU. simulate-verdict-seeds.property.test.ts, in the end-to-end suite, samples more (issue 42).
simulateVerdictProperty(1, 20211103);
