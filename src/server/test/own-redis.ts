// A Redis of a test's (or a benchmark's) own, to break for real: `redis-server` on a free port, paused
// with SIGSTOP (it keeps accepting connections in the kernel and answers nothing) and resumed with
// SIGCONT; never the shared one on 6379. And a pass-through in front of it that counts every command a
// client sends, by name, so a test can say what reached Redis while it was paused.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGSTOP: connections are still accepted, nothing is answered. */
  pause(): void;
  /** SIGCONT: it reads and answers everything sent meanwhile, in order. */
  resume(): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Answers PONG on `port` within `ms`, or false. */
function pings(port: number, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => (socket.destroy(), clearTimeout(timer), resolve(ok));
    const timer = setTimeout(() => done(false), ms);
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-redis-'));
    const child: ChildProcess = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    // A test process that ends without stop() (a failed hook, a killed worker) leaves no redis-server
    // behind: a watchdog ends it once this process is gone.
    const watchdog = spawn(
      'sh',
      ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 ${child.pid} 2>/dev/null`],
      { stdio: 'ignore', detached: true },
    );
    watchdog.unref();
    const kill = () => {
      child.kill('SIGKILL');
      watchdog.kill('SIGKILL');
    };
    process.once('exit', kill);
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const deadline = Date.now() + 10_000;
    while (child.exitCode === null && Date.now() < deadline && !(await pings(port))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (child.exitCode === null && (await pings(port))) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pause: () => child.kill('SIGSTOP'),
        resume: () => child.kill('SIGCONT'),
        async stop() {
          process.off('exit', kill);
          // SIGKILL ends a paused process too.
          kill();
          await exited;
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    kill();
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
    // The free port was taken in between: another one.
    if (attempt >= 2) throw new Error('redis-server did not start');
  }
}

/** Command names in a client's RESP stream (arrays of bulk strings, or inline commands). */
class CommandReader {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly onCommand: (name: string) => void) {}

  push(chunk: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.next());
  }

  private next(): boolean {
    const buf = this.buf;
    let at = 0;
    const line = () => {
      const end = buf.indexOf('\r\n', at);
      if (end < 0) return undefined;
      const text = buf.toString('latin1', at, end);
      at = end + 2;
      return text;
    };
    const head = line();
    if (head === undefined) return false;
    let name: string;
    if (head.startsWith('*')) {
      const args: string[] = [];
      for (let i = 0; i < Number(head.slice(1)); i++) {
        const len = line();
        if (len === undefined) return false;
        const n = Number(len.slice(1));
        if (buf.length < at + n + 2) return false;
        args.push(buf.toString('latin1', at, at + n));
        at += n + 2;
      }
      name = args[0] ?? '';
    } else name = head.split(' ')[0];
    this.buf = buf.subarray(at);
    this.onCommand(name.toUpperCase());
    return true;
  }
}

export interface CountingProxy {
  url: string;
  /** Every command clients sent through it, by name, in the order they arrived. */
  commands: string[];
  close(): Promise<void>;
}

/** A TCP pass-through to `port` on 127.0.0.1 that records every command its clients send. */
export async function countingProxy(port: number): Promise<CountingProxy> {
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    const reader = new CommandReader((name) => commands.push(name));
    client.on('data', (chunk) => {
      reader.push(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${own}`,
    commands,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
