// The server half of `npm run build`: src/server/main.ts and everything it imports from src/ bundled
// into dist/server/main.js, run by plain node (no TypeScript at run time, no tsx in production), and the
// two commands an operator needs on a production install beside it (dist/server/admin-grant.js and
// dist/server/migrate-embedded.js: `npm run admin:grant` and `npm run migrate:embedded` need tsx). The
// packages stay in node_modules (production dependencies). Sources find their data files next to
// themselves (migrations, catalogues, the password list), so each module's import.meta.url is rewritten
// to its source file's address: the bundle reads them from src/, which ships with it.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist/server');
const entryPoints = {
  main: path.join(root, 'src/server/main.ts'),
  'admin-grant': path.join(root, 'scripts/admin-grant.ts'),
  'migrate-embedded': path.join(root, 'scripts/migrate-embedded.ts'),
};

/** import.meta.url (and dirname) of a source module: its own file, relative to the bundle's location. */
const sourceAddress = {
  name: 'source-address',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const rel = path.relative(outdir, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
      const contents = text
        .replaceAll('import.meta.url', url)
        .replaceAll(
          'import.meta.dirname',
          `(await import('node:path')).dirname((await import('node:url')).fileURLToPath(${url}))`,
        );
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await esbuild.build({
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bare package names stay imports of node_modules; the #shared/#server aliases are our sources.
  plugins: [
    sourceAddress,
    {
      name: 'packages-external',
      setup(build) {
        build.onResolve({ filter: /^[^./#]/ }, (args) =>
          path.isAbsolute(args.path) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const buildId = (() => {
  try {
    return fs.readFileSync(path.join(root, 'dist/client/build-id.txt'), 'utf8').trim();
  } catch {
    return 'none';
  }
})();
// The server and the web app it serves are one build.
fs.writeFileSync(path.join(outdir, 'build-id.txt'), `${buildId}\n`);
console.log(
  `server bundled in ${Math.round(performance.now() - started)} ms: ${Object.keys(entryPoints)
    .map((name) => `dist/server/${name}.js`)
    .join(', ')} (build ${buildId})`,
);
