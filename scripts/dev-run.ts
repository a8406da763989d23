// Runs the CLI from source (`npx tsx scripts/dev-run.ts analyze PATH`), for development without a build.
import { main } from '../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
