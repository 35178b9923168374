import os from 'node:os';
import { defineConfig } from 'vitest/config';

// API tests run on PGlite always, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine. The tests wait on
    // PostgreSQL, Redis, ffmpeg and child processes much of the time, so two run well side by side there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: backends.map((backend) => ({
      test: {
        name: backend,
        // Browser-side unit tests need no database: they run once, in the PGlite project.
        include: backend === 'pglite' ? ['src/**/*.test.ts', 'scripts/**/*.test.ts'] : ['src/server/**/*.test.ts'],
        environment: 'node',
        setupFiles: ['src/server/test/setup.ts'],
        env: { TEST_DB_BACKEND: backend },
        testTimeout: 60_000,
        hookTimeout: 120_000,
      },
    })),
  },
});
