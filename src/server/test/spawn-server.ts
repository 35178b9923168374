// A real server script (test/server-process.ts, test/draining-server.ts) as a child process, for the tests
// that kill it, signal it or cut its database: started with tsx as a loader (the process watched is the
// server itself), on `env` over this process's, resolved once it prints `listening <port>`.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export interface SpawnedServer {
  proc: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
}

export async function spawnServer(script: string, env: Record<string, string>): Promise<SpawnedServer> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening (\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    });
    void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}) at start:\n${output}`)));
  });
  return { proc, port, base: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Ends a spawned server that is still running (SIGKILL), and waits for it. */
export async function killServer(proc: ChildProcess | null | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await gone;
}
