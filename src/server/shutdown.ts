// The drain on SIGTERM or SIGINT (docs/decisions/1011), used by main.ts and by the process the
// shutdown test signals (test/draining-server.ts):
// 1. readiness answers 503 (ctx.lifecycle.draining) for SHUTDOWN_DELAY seconds while the listener still
//    accepts and serves, so a load balancer takes the instance out on its health check instead of
//    learning it from refused or reset connections; the worker hands its running job back at once;
// 2. every answer from the signal on says `Connection: close` and ends its connection (an answer whose
//    head went out before the signal ends its connection when it is done);
// 3. then the listener closes: no new connection; connections with no request in progress are closed
//    (a request sent before the signal has been read by then); requests in flight are answered, for up
//    to SHUTDOWN_TIMEOUT seconds, after which their connections are cut;
// 4. the database closes and the process exits 0. A second signal exits 1 at once.
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface DrainParts {
  app: FastifyInstance;
  /** Seconds of 503 on readiness, with the listener open, before it closes (SHUTDOWN_DELAY). */
  delaySeconds: number;
  /** Seconds requests in flight get once the listener is closed (SHUTDOWN_TIMEOUT). */
  timeoutSeconds: number;
  lifecycle: { draining: boolean };
  /** Stops the background worker; resolves once its running job is handed back. */
  stopWorker(): Promise<void>;
  /** Waits up to `ms` for the handed-back job's handler to return; true when it did. */
  workerSettled(ms: number): Promise<boolean>;
  /** Closes the database (and Redis); `settled`: the handed-back job's handler has returned. */
  closeRuntime(settled: boolean): Promise<void>;
  log: FastifyBaseLogger;
  exit?: (code: number) => void;
}

/** One turn of the event loop: what the sockets hold by now is read before the next step. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Tracks the answers in progress (call before listen) and drains on SIGTERM and SIGINT. Returns the
 * drain itself, for a caller that stops the server another way.
 */
export function drainOnSignals(p: DrainParts): (signal: string) => Promise<void> {
  const exit = p.exit ?? ((code: number) => process.exit(code));
  const server = p.app.server;
  const inProgress = new Set<ServerResponse>();
  let draining = false;

  /** This answer ends its connection: said in its head when it has not gone out yet. */
  const lastOnItsConnection = (res: ServerResponse) => {
    if (!res.headersSent) {
      // Node then writes `Connection: close` and ends the connection after the answer.
      res.shouldKeepAlive = false;
      return;
    }
    const socket = res.socket;
    res.once('finish', () => {
      if (socket && !socket.destroyed) socket.end();
    });
  };

  // Before Fastify's own listener: the answer's head is not written yet.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) {
      lastOnItsConnection(res);
      return;
    }
    inProgress.add(res);
    const done = () => inProgress.delete(res);
    res.once('finish', done);
    res.once('close', done);
  });

  const drain = async (signal: string) => {
    if (draining) {
      // A second signal: the operator does not want to wait for the drain.
      p.log.warn({ signal }, 'stopping now, without waiting for the drain');
      exit(1);
      return;
    }
    draining = true;
    p.lifecycle.draining = true;
    const began = performance.now();
    p.log.info(
      { signal, delaySeconds: p.delaySeconds, timeoutSeconds: p.timeoutSeconds },
      'shutting down: readiness answers 503, the listener closes after the delay',
    );
    for (const res of inProgress) lastOnItsConnection(res);
    inProgress.clear();
    // The running job goes back at once, so another instance takes it up; its handler (the video job
    // kills ffmpeg and removes its own files) has until the requests' time is up to return.
    const worker = p
      .stopWorker()
      .catch((err: unknown) => p.log.error({ err }, 'handing the running job back failed'))
      .then(() => p.workerSettled((p.delaySeconds + p.timeoutSeconds) * 1000));

    await sleep(p.delaySeconds * 1000);
    // Two turns of the loop: a connection accepted in the last one has its request read, so the close
    // below does not take it for an idle one.
    await nextTurn();
    await nextTurn();
    p.log.info('closing the listener; waiting for the requests in flight');
    const force = setTimeout(() => {
      p.log.warn('requests still open after SHUTDOWN_TIMEOUT: closing their connections');
      server.closeAllConnections();
    }, p.timeoutSeconds * 1000);
    force.unref();
    // Fastify closes the listener and the idle connections, and waits for the others; a request that
    // still arrives on one is answered 503 with Connection: close.
    const closed = p.app.close().catch((err: unknown) => p.log.error({ err }, 'closing the server failed'));
    const [settled] = await Promise.all([worker, closed]);
    clearTimeout(force);
    // A handler still running past the timeout: on PostgreSQL its connections end with the process; the
    // embedded database is always closed (closeRuntime decides), so its files are left whole.
    await p.closeRuntime(settled);
    p.log.info({ ms: Math.round(performance.now() - began) }, 'stopped');
    exit(0);
  };
  process.on('SIGINT', () => void drain('SIGINT'));
  process.on('SIGTERM', () => void drain('SIGTERM'));
  return drain;
}
