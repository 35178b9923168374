// Builds the SPA into dist/client. Every JS/CSS file lives under /dyn/ and is requested with
// ?v=<build id> (spec sections 1 and 7): the server serves /dyn/* as static files and the build id
// doubles as a cache key that changes with each deploy.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { resolveBuildId } from './scripts/build-id.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const ASSETS_DIR = 'dyn';
const SECTION_RE = /\/src\/client\/sections\/([a-z-]+)\/index\.tsx?$/;
/** A build for the browser journeys carries their handle (window.__directoryApp); a production build does not. */
const TEST_HOOKS = process.env.DIRECTORY_TEST_HOOKS === '1';
const I18N_RE = /\/src\/shared\/i18n\/([a-z]{2})\/([a-z0-9-]+)\.json$/;

const SRC = path.join(root, 'src/');
const DIRECTORY_SECTION = path.join(SRC, 'client/sections/directory/index.tsx');
const closures = new Map<string, Set<string>>();

/** The modules `entry` imports statically, directly or not (its dynamic imports stay out), itself included. */
function staticallyFrom(entry: string, ctx: Rolldown.ChunkingContext): Set<string> {
  let closure = closures.get(entry);
  if (closure) return closure;
  closure = new Set();
  const queue = [entry];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (closure.has(id)) continue;
    closure.add(id);
    queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  closures.set(entry, closure);
  return closure;
}

/**
 * Adds `?v=<id>` to every chunk reference so the browser requests `/dyn/<file>?v=<id>`.
 * Three places name a chunk: the HTML (script/link, via renderBuiltUrl), Vite's preload
 * dependency list (also renderBuiltUrl) and the import specifiers Rolldown writes between chunks
 * (rewritten here in renderChunk). All three must agree: a module fetched once as `x.js` and
 * once as `x.js?v=` would be two module instances (two Reacts, two i18n stores).
 */
function versionedChunks(buildId: string): Plugin {
  // Relative specifiers of static imports/exports and dynamic imports between emitted chunks.
  const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'`])(\.{1,2}\/[^"'`?]+\.js)\2/g;
  return {
    name: 'versioned-chunks',
    apply: 'build',
    renderChunk(code) {
      if (!specifier.test(code)) return null;
      specifier.lastIndex = 0;
      return {
        code: code.replace(
          specifier,
          (_m, lead: string, q: string, file: string) => `${lead}${q}${file}?v=${buildId}${q}`,
        ),
        map: null,
      };
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build-id.txt', source: `${buildId}\n` });
      // Tells the journeys' server (scripts/app-server.ts) and npm start which kind of build dist/client holds.
      if (TEST_HOOKS) this.emitFile({ type: 'asset', fileName: 'test-hooks.txt', source: 'journeys\n' });
    },
  };
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build (issue 14): the server sends
 * them as they are (@fastify/static preCompressed), so no request pays for compressing a chunk, and
 * brotli runs at its best quality once, at build time. Images and fonts are left alone.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '');
      for (const fileName of Object.keys(bundle)) {
        if (!TEXT.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const raw = fs.readFileSync(file);
        if (raw.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

export default defineConfig(({ command }) => {
  const buildId = command === 'build' ? resolveBuildId(root) : 'dev';
  return {
    plugins: [react(), versionedChunks(buildId), precompress()],
    define: {
      'import.meta.env.VITE_BUILD_ID': JSON.stringify(buildId),
      'import.meta.env.VITE_TEST_HOOKS': JSON.stringify(TEST_HOOKS),
    },
    experimental: {
      renderBuiltUrl(filename, { hostType }) {
        if (hostType === 'css') return undefined;
        if (filename.startsWith(`${ASSETS_DIR}/`) && /\.(js|css)$/.test(filename)) return `/${filename}?v=${buildId}`;
        return undefined;
      },
    },
    build: {
      outDir: 'dist/client',
      emptyOutDir: true,
      assetsDir: ASSETS_DIR,
      target: 'es2022',
      sourcemap: false,
      // <link rel="modulepreload"> is native in Chromium (since 66), Firefox (115, 2023) and Safari (17,
      // 2023); an older browser of the es2022 target merely fetches those chunks on import instead of
      // ahead. The polyfill (0.3 KB of every first route) goes (docs/decisions/0712).
      modulePreload: { polyfill: false },
      rolldownOptions: {
        // precompress takes its seconds on purpose (brotli at best quality, once per build).
        checks: { pluginTimings: false },
        output: {
          // The first route in two chunks (docs/decisions/0711): everything the entry imports statically,
          // and everything the directory section (the public screens) imports statically besides. The
          // automatic split cut these into fifteen files by which sections share them: fifteen requests
          // before the first screen, each with its own headers and round trip on a phone.
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 2 },
              {
                // The app's own modules only: a library's module captured whole keeps exports that
                // tree-shaking would drop (react-i18next's Trans and its HTML parser, 3.6 KB).
                name: (id, ctx) =>
                  id.startsWith(SRC) && staticallyFrom(DIRECTORY_SECTION, ctx).has(id) ? 'directory' : null,
                priority: 1,
              },
            ],
          },
          entryFileNames: `${ASSETS_DIR}/[name]-[hash].js`,
          assetFileNames: `${ASSETS_DIR}/[name]-[hash][extname]`,
          // Sections and catalogues get readable names so a failing chunk in an error report says
          // which part of the app it was.
          chunkFileNames(chunk) {
            const id = chunk.facadeModuleId ?? '';
            const section = SECTION_RE.exec(id);
            if (section) return `${ASSETS_DIR}/${section[1]}-[hash].js`;
            const catalogue = I18N_RE.exec(id);
            if (catalogue) return `${ASSETS_DIR}/i18n-${catalogue[1]}-${catalogue[2]}-[hash].js`;
            return `${ASSETS_DIR}/[name]-[hash].js`;
          },
        },
      },
    },
    server: {
      port: 5173,
      // changeOrigin off: the API compares Origin with Host on cookie-less posts (login CSRF),
      // so Host must stay the dev server's own.
      proxy: {
        '/api': { target: 'http://localhost:3000', changeOrigin: false },
        '/media': { target: 'http://localhost:3000', changeOrigin: false },
      },
    },
  };
});
