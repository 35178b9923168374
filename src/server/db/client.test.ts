import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { connectionLost, DatabaseLockedError, IDLE_KEEP_MS, openDatabase } from './client';
import { sql } from 'drizzle-orm';
import { backend, openTestDatabase } from '../test/helpers';
import { rowsOf } from './bulk-insert';

describe.runIf(backend === 'pglite')('embedded PGlite directory', () => {
  it('refuses a second open of the same directory with a clear message, and reopens after close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-lock-'));
    const first = await openDatabase({ pgliteDir: dir });
    await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/already open in another process/);
    // The message names the holder and says what to do.
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(
      new RegExp(
        `process ${process.pid}, still running\\)\\. Stop that server first, or give this one its own DATA_DIR`,
      ),
    );
    await first.close();
    const again = await openDatabase({ pgliteDir: dir });
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(backend === 'pglite')('embedded PGlite lock after a crash', () => {
  it('a lock whose holder died on this host is taken over at once; a living holder still refuses', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-lock-'));
    const db = path.join(dir, 'db');
    fs.mkdirSync(path.join(db, '.lock'), { recursive: true });
    const holder = (pid: number) =>
      fs.writeFileSync(path.join(db, '.lock-owner'), JSON.stringify({ pid, host: os.hostname() }));
    // A living process (our parent) holds it, freshly: refused.
    holder(process.ppid);
    await expect(openDatabase({ pgliteDir: db })).rejects.toBeInstanceOf(DatabaseLockedError);
    // A process that has exited (SIGKILL leaves the lock behind): taken over without waiting.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    holder(dead);
    const opened = await openDatabase({ pgliteDir: db });
    expect(JSON.parse(fs.readFileSync(path.join(db, '.lock-owner'), 'utf8')).pid).toBe(process.pid);
    await opened.close();
    expect(fs.existsSync(path.join(db, '.lock-owner'))).toBe(false);
    // A lock naming our own pid that this process does not hold (a container restarted with the same
    // pid) is stale too.
    fs.mkdirSync(path.join(db, '.lock'), { recursive: true });
    holder(process.pid);
    const reopened = await openDatabase({ pgliteDir: db });
    await reopened.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(backend === 'postgres')('PostgreSQL sessions of the app', () => {
  it('run without parallel workers or JIT, on every connection of the pool (decisions 0732, 0749)', async () => {
    const database = await openTestDatabase('sessions');
    try {
      // Several at once: each statement may take its own connection of the pool.
      const rows = await Promise.all(
        Array.from({ length: 4 }, () =>
          database.db.execute(
            sql`select current_setting('max_parallel_workers_per_gather') as n, current_setting('jit') as jit, pg_sleep(0.05)`,
          ),
        ),
      );
      for (const r of rows) expect(rowsOf<{ n: string; jit: string }>(r)[0]).toMatchObject({ n: '0', jit: 'off' });
    } finally {
      await database.close();
    }
  });

  it('keep their connections through a lull of a minute, and let them go after the keep (decision 0756)', async () => {
    const database = await openTestDatabase('idle');
    // Three at once, each on its own connection of the pool: the backends' process ids.
    const backends = async () => {
      const rows = await Promise.all(
        Array.from({ length: 3 }, () => database.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)),
      );
      return new Set(rows.map((r) => rowsOf<{ pid: number }>(r)[0].pid));
    };
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const first = await backends();
      expect(first.size).toBe(3);
      // pg-pool's own 10 s would have closed all three.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await backends()).toEqual(first);
      await vi.advanceTimersByTimeAsync(IDLE_KEEP_MS + 1_000);
      const later = await backends();
      expect([...later].filter((pid) => first.has(pid))).toEqual([]);
    } finally {
      vi.useRealTimers();
      await database.close();
    }
  });
});

describe.runIf(backend === 'postgres')('PostgreSQL connections lost (decision 1017)', () => {
  /** Ends the given backends from a connection of the test's own. */
  async function terminate(pids: number[]) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    } finally {
      await admin.end();
    }
  }

  it('a read whose connection is ended under it runs once more on a new one; a write does not', async () => {
    const database = await openTestDatabase('lost_read');
    try {
      const pid = async () =>
        rowsOf<{ pid: number }>(await database.db.execute(sql`select pg_backend_pid() as pid`))[0].pid;
      const first = await pid();
      // The statement ends its own connection when it runs on the first one (the only idle one of the pool):
      // its first attempt is lost, the second runs on a new connection.
      const res = await database.db.execute(
        sql`select case when pg_backend_pid() = ${first} then pg_terminate_backend(pg_backend_pid()) end as ended, pg_backend_pid() as pid`,
      );
      expect(rowsOf<{ pid: number }>(res)[0].pid).not.toBe(first);
      // A statement that is not a read is not sent twice: the caller hears of the loss.
      await database.db.execute(sql`create table lost_write (n int)`);
      const second = await pid();
      const failed = await database.db
        .execute(
          sql`with w as (insert into lost_write values (1) returning n) select pg_terminate_backend(pg_backend_pid()) from w`,
        )
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(second).not.toBe(first);
      expect(connectionLost(failed)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('a transaction whose connection is ended between two statements fails as "connection lost", and the process lives on', async () => {
    const database = await openTestDatabase('lost_tx');
    const crashes: unknown[] = [];
    const onCrash = (err: unknown) => crashes.push(err);
    process.on('uncaughtException', onCrash);
    try {
      const failed = await database.db
        .transaction(async (tx) => {
          const pid = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0].pid;
          await terminate([pid]);
          // The client, checked out, hears of the end while idle: an 'error' event on it (no listener would crash).
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.execute(sql`select 1`);
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(failed).not.toBeNull();
      expect(connectionLost(failed)).toBe(true);
      expect(crashes).toEqual([]);
      // The dead client was dropped: the next statements run.
      expect(rowsOf<{ one: number }>(await database.db.execute(sql`select 1 as one`))[0].one).toBe(1);
      await database.db.transaction(async (tx) => tx.execute(sql`select 1`));
    } finally {
      process.off('uncaughtException', onCrash);
      await database.close();
    }
  });

  it('tells a lost connection from a failed statement', () => {
    expect(
      connectionLost(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(
      connectionLost(new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') })),
    ).toBe(true);
    expect(
      connectionLost(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(connectionLost(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(connectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(connectionLost(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(false);
    expect(
      connectionLost(new Error('Failed query: select 1', { cause: Object.assign(new Error('x'), { code: '22008' }) })),
    ).toBe(false);
  });
});
