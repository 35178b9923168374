import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// API tests run on PGlite always, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// Suites whose subject is not the database (headers, error answers, languages, pages, media processing,
// the limiters' own stores, the auth flows' mail and sessions) run once, on PGlite: the second run on
// PostgreSQL repeated minutes of ffmpeg, sharp and HTTP work and could fail only where the first did. A
// suite that reads or writes money, listings, the directory or concurrency-sensitive rows stays on both.
const DATABASE_INDEPENDENT = [
  'src/server/plugins/error-handler.test.ts',
  'src/server/plugins/security-headers.test.ts',
  'src/server/modules/i18n/language.test.ts',
  'src/server/modules/seo/seo.test.ts',
  'src/server/modules/share/share.test.ts',
  'src/server/modules/media/media.test.ts',
  'src/server/modules/media/video.test.ts',
  'src/server/modules/media/media-stores.test.ts',
  'src/server/modules/directory/view-counts.test.ts',
  'src/server/modules/auth/auth.test.ts',
  'src/server/lib/rate-limiter.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine. The tests wait on
    // PostgreSQL, Redis, ffmpeg and child processes much of the time, so two run well side by side there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      // Browser-side, shared and script tests need no database: once, each file in a fresh module graph (some
      // mock modules).
      {
        test: {
          name: 'client',
          include: ['src/client/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['src/server/test/setup.ts'],
          testTimeout: 60_000,
        },
      },
      ...backends.map((backend) => ({
        test: {
          name: backend,
          include: ['src/server/**/*.test.ts'],
          exclude: backend === 'pglite' ? configDefaults.exclude : [...configDefaults.exclude, ...DATABASE_INDEPENDENT],
          environment: 'node',
          setupFiles: ['src/server/test/setup.ts'],
          // Migrated database templates, made once per run (a new file or database only when the migrations
          // change).
          globalSetup: ['src/server/test/templates.ts'],
          // The server's tests share each worker's module graph: importing the app (Fastify, Drizzle, sharp,
          // the schemas) cost about 1.3 s per file, a third of the suite's time, paid once per worker instead.
          // Nothing in them mocks a module; each builds its own app and database (createTestApp).
          isolate: false,
          env: { TEST_DB_BACKEND: backend },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      })),
    ],
  },
});
