import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    // Scratch folders go under one per-run folder, removed at the end (test/helpers/scratch-tmpdir.ts).
    globalSetup: ['test/helpers/scratch-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
