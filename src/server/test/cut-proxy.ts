// An HTTP proxy between the app and a provider's stand-in, for the tests of an outcome we never hear
// (decision 0423): it passes every request on, and for the next request that matches it lets the provider
// act, then loses the answer: `drop` closes our connection (the provider made it, we saw a network error),
// `hold` keeps the connection open without answering (the test kills the process that waits).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CutProxy {
  url: string;
  /**
   * The next request whose method is `method` and whose path matches `path` reaches the provider, and its
   * answer is lost as `how` says; resolves once the provider has answered it.
   */
  cutNext(method: string, path: RegExp, how: 'drop' | 'hold'): Promise<void>;
  close(): Promise<void>;
}

export async function startCutProxy(target: string): Promise<CutProxy> {
  const cuts: Array<{ method: string; path: RegExp; how: 'drop' | 'hold'; done: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const upstream = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        const at = cuts.findIndex((c) => c.method === req.method && c.path.test(req.url ?? ''));
        if (at >= 0) {
          const [cut] = cuts.splice(at, 1);
          if (cut.how === 'drop') req.socket.destroy();
          cut.done();
          return;
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      })().catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cutNext: (method, path, how) => new Promise<void>((done) => cuts.push({ method, path, how, done })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
