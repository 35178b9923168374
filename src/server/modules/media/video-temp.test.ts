// Issue 42, item 8: an instance killed in the middle of a video conversion left its temporary files
// (the upload and the half-written MP4) for good. Two real conversions run in child processes
// (test/conversion-process.ts) on one temporary directory: one is killed with SIGKILL while ffmpeg
// writes, the other is stopped (SIGSTOP: alive, but touching nothing). The next conversion job on the
// machine removes what the killed one left and keeps the live one's files, which it then finishes with.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { multipart, videoWithLocation } from '../../test/media-files';
import { ORPHANED_AFTER_MS, removeOrphanedConversions } from './video-pipeline';
import { mediaJobHandlers } from './video.job';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const exec = promisify(execFile);

let t: TestApp;
/** The temporary directory the conversions share (the job's os.tmpdir() while it runs here). */
let tmp: string;
/** Where the long input is made. */
let inputDir: string;
let input: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'video-temp-shared-'));
  inputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-temp-input-'));
  input = path.join(inputDir, 'long.mp4');
  // MPEG-4 Part 2 is quick to make and is transcoded (not copied), so the conversion lasts seconds.
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25:duration=20',
    '-c:v',
    'mpeg4',
    '-q:v',
    '5',
    input,
  ]);
  t = await createTestApp();
  await seedGeo(t.ctx);
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(inputDir, { recursive: true, force: true });
});

interface Conversion {
  proc: ChildProcess;
  dir: Promise<string>;
  converting: Promise<void>;
  done: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startConversion(): Conversion {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/test/conversion-process.ts', input, tmp], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  const watchers = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watch of watchers) watch();
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  const line = (re: RegExp) => {
    const seen = new Promise<RegExpExecArray>((resolve, reject) => {
      const watch = () => {
        const m = re.exec(output);
        if (m) {
          watchers.delete(watch);
          resolve(m);
        }
      };
      watchers.add(watch);
      void exited.then(({ code, signal }) => {
        watch();
        reject(new Error(`conversion exited (${code ?? signal}) before ${re}:\n${output}`));
      });
    });
    return seen;
  };
  // A conversion the test kills never says `done`: nobody waits for that.
  const quiet = <T>(p: Promise<T>) => {
    p.catch(() => undefined);
    return p;
  };
  return {
    proc,
    exited,
    dir: quiet(line(/^dir (.+)$/m).then((m) => m[1])),
    converting: quiet(line(/^converting$/m).then(() => undefined)),
    done: quiet(line(/^done$/m).then(() => undefined)),
  };
}

const entries = (dir: string) => fs.readdirSync(dir).sort();

async function uploadVideo(userId: number) {
  const session = await createSession(t.ctx, userId);
  const form = multipart(await videoWithLocation(), { filename: 'clip.mp4', contentType: 'video/mp4' });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/upload/video/${userId}`,
    cookies: session.cookies,
    headers: { ...session.headers, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The conversion jobs run here as on an instance whose temporary directory is `tmp`. */
async function runJobsWithTmp() {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    return await runDueJobs(t.ctx, mediaJobHandlers);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

describe('temporary files of a conversion whose process is gone (issue 42, item 8)', () => {
  it("are removed by the next conversion on the machine, which keeps a live conversion's files", async () => {
    const killed = startConversion();
    const live = startConversion();
    const [killedDir, liveDir] = await Promise.all([killed.dir, live.dir]);
    await Promise.all([killed.converting, live.converting]);
    live.proc.kill('SIGSTOP');
    killed.proc.kill('SIGKILL');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // What the killed one leaves: the upload and the half-written MP4.
    expect(entries(killedDir)).toEqual(['in', 'out.mp4']);
    expect(fs.statSync(path.join(killedDir, 'out.mp4')).size).toBeGreaterThan(0);
    expect(entries(liveDir)).toEqual(['in', 'out.mp4']);

    // The next attempt of a conversion job here (any video's).
    const { account } = await createAdvertiser(t.ctx, { about: 'Hello there.' });
    await uploadVideo(account.id);
    expect(await runJobsWithTmp()).toBe(1);
    const [row] = await t.ctx.db.select().from(media).where(eq(media.userId, account.id));
    expect(row.status).toBe('pending');

    expect(fs.existsSync(killedDir)).toBe(false);
    // The live conversion's directory is whole, and the job's own is gone.
    expect(entries(liveDir)).toEqual(['in', 'out.mp4']);
    expect(entries(tmp)).toEqual([path.basename(liveDir)]);

    // The live one goes on with its files and removes its directory itself.
    live.proc.kill('SIGCONT');
    await live.done;
    expect(await live.exited).toEqual({ code: 0, signal: null });
    expect(entries(tmp)).toEqual([]);
  }, 180_000);

  it("removes a directory named after this process that it did not make, and another host's only once untouched for an hour", async () => {
    const host = encodeURIComponent(os.hostname());
    const make = (name: string) => {
      const dir = path.join(tmp, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'in'), 'x');
      return dir;
    };
    // An earlier process of this container that had our pid (a restarted container).
    const earlier = make(`directory-video-${host}-${process.pid}-aB3dE9`);
    // Running processes of this host: the test runner's parent.
    const running = make(`directory-video-${host}-${process.ppid}-Zz09aa`);
    const otherHost = make('directory-video-other-host.example-4242-k2LmN0');
    const notOurs = make('directory-video-something');
    expect(await removeOrphanedConversions(tmp)).toEqual([earlier]);
    expect(entries(tmp)).toEqual([running, otherHost, notOurs].map((d) => path.basename(d)).sort());

    const longAgo = new Date(Date.now() - ORPHANED_AFTER_MS - 60_000);
    fs.utimesSync(otherHost, longAgo, longAgo);
    expect(await removeOrphanedConversions(tmp)).toEqual([otherHost]);
    expect(entries(tmp)).toEqual([running, notOurs].map((d) => path.basename(d)).sort());
    for (const dir of [running, notOurs]) fs.rmSync(dir, { recursive: true });
  });
});
