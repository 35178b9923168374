// The real server as a child process, for the browser journeys (e2e/serve.ts, started by Playwright's
// webServer) and the benchmarks (bench/*.bench.ts): a free port, a build of the web app when its sources
// changed, start, wait for /api/health, stop. A module, not a command.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/**
 * Builds dist/client unless it is newer than its sources and of the wanted kind: `testHooks` builds
 * carry the journeys' test handle (vite.config.ts), which `npm start` rebuilds without.
 */
export function buildIfStale(testHooks: boolean): void {
  const marker = path.join(root, 'dist/client/build-id.txt');
  const inputs = ['src/client', 'src/shared', 'public', 'index.html', 'vite.config.ts'].map((p) => path.join(root, p));
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const hasHooks = fs.existsSync(path.join(root, 'dist/client/test-hooks.txt'));
  if (builtAt && hasHooks === testHooks && Math.max(...inputs.map(newestMtime)) <= builtAt) return;
  console.log('building the web app...');
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, DIRECTORY_TEST_HOOKS: testHooks ? '1' : '' } },
  );
  if (res.status !== 0) throw new Error('vite build failed');
}

export interface AppServer {
  baseUrl: string;
  child: ChildProcess;
  /** Resolves when the server process has exited. */
  exited: Promise<void>;
  /** SIGTERM (the server closes its database), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface AppServerOptions {
  /** A free one when left out. */
  port?: number;
  /** The server's environment on top of this process's (DATA_DIR, SEED_PROFILES, DATABASE_URL...). */
  env?: Record<string, string>;
  /** The server's stdout and stderr: a file, 'inherit', 'stderr' (its stderr only), or nothing (the default). */
  output?: string;
  healthTimeoutMs?: number;
  /**
   * The server's entry point: src/server/main.ts (places, demo data, the built web app), or
   * src/server/test/server-process.ts (the app and its worker on the database as it is).
   */
  entry?: string;
}

export async function startApp(o: AppServerOptions = {}): Promise<AppServer> {
  const port = o.port ?? (await freePort());
  const file = o.output && o.output !== 'inherit' && o.output !== 'stderr' ? o.output : undefined;
  if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = file ? fs.openSync(file, 'w') : o.output === 'inherit' ? 'inherit' : 'ignore';
  const entry = o.entry ?? 'src/server/main.ts';
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), entry], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...o.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, o.output === 'stderr' ? 'inherit' : out],
  });
  if (typeof out === 'number') fs.closeSync(out);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const timeout = o.healthTimeoutMs ?? 300_000;
  const deadline = Date.now() + timeout;
  const where = file ? `; see ${file}` : '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}${where}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { baseUrl, child, exited, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`the server was not healthy after ${timeout} ms${where}`);
}
