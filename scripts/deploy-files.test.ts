// The deployment files (deploy/) name only variables the server reads, and what production needs
// (issue 24, item 7): a variable renamed in src/server/env.ts and not in them fails here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES, loadEnv } from '../src/server/env';
import { resolveBuildId } from './build-id.mjs';

const deploy = path.resolve(import.meta.dirname, '../deploy');
const read = (f: string) => fs.readFileSync(path.join(deploy, f), 'utf8');

/** NAME=value lines of an environment file (comments and blank lines skipped). */
function envFile(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

describe('deploy/', () => {
  const example = envFile(read('app.env.example'));
  const unit = read('directory@.service');
  const unitVars = envFile(
    unit
      .split('\n')
      .filter((l) => l.startsWith('Environment='))
      .map((l) => l.slice('Environment='.length))
      .join('\n'),
  );

  it('names only variables the server reads', () => {
    for (const name of [...Object.keys(example), ...Object.keys(unitVars)]) expect(ENV_NAMES, name).toContain(name);
    const compose = read('compose.yaml');
    // The app's environment comes from app.env only; the other services' variables are their own.
    expect(compose).toMatch(/env_file: app\.env/);
    expect(read('Dockerfile')).toMatch(/ENV NODE_ENV=production PORT=3000 DATA_DIR=/);
    for (const name of ['NODE_ENV', 'PORT', 'DATA_DIR']) expect(ENV_NAMES).toContain(name);
  });

  it('holds what a production instance on PostgreSQL and Redis needs, and it passes the schema once filled in', () => {
    for (const name of [
      'NODE_ENV',
      'PUBLIC_URL',
      'DATABASE_URL',
      'REDIS_URL',
      'SESSION_SECRET',
      'TRUST_PROXY',
      'SMTP_URL',
      'S3_BUCKET',
      'S3_PRIVATE_BUCKET',
    ])
      expect(Object.keys(example), name).toContain(name);
    const env = loadEnv({ ...example, SESSION_SECRET: 'a'.repeat(64) });
    expect(env.NODE_ENV).toBe('production');
    // The compose file's MinIO and the buckets it makes are the ones the app is given.
    const compose = read('compose.yaml');
    expect(compose).toContain(`MINIO_ROOT_USER: ${env.S3_ACCESS_KEY_ID}`);
    expect(compose).toContain(`MINIO_ROOT_PASSWORD: ${env.S3_SECRET_ACCESS_KEY}`);
    expect(compose).toContain(`local/${env.S3_BUCKET} local/${env.S3_PRIVATE_BUCKET}`);
    // Left empty, the secret is refused (item 2).
    expect(() => loadEnv(example)).toThrow(/SESSION_SECRET/);
  });

  it('gives the drain its time: systemd and compose wait longer than SHUTDOWN_TIMEOUT', () => {
    const timeout = loadEnv({ ...example, SESSION_SECRET: 'a'.repeat(64) }).SHUTDOWN_TIMEOUT;
    expect(Number(/TimeoutStopSec=(\d+)/.exec(unit)?.[1])).toBeGreaterThan(timeout);
    expect(Number(/stop_grace_period: (\d+)s/.exec(read('compose.yaml'))?.[1])).toBeGreaterThan(timeout);
    expect(unit).toMatch(/ExecStart=\/usr\/bin\/node scripts\/start\.mjs/);
    expect(read('Caddyfile')).toMatch(/health_uri \/api\/health\/ready/);
  });
});

/**
 * An instance's environment as systemd.exec builds it: Environment= lines in order (with %i the instance),
 * then every EnvironmentFile=, whose variables override the Environment= ones.
 */
function systemdEnvironment(unit: string, instance: string, files: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  const lines = unit.split('\n').map((l) => l.trim());
  for (const line of lines.filter((l) => l.startsWith('Environment=')))
    Object.assign(env, envFile(line.slice('Environment='.length).replaceAll('%i', instance)));
  for (const line of lines.filter((l) => l.startsWith('EnvironmentFile=')))
    Object.assign(env, envFile(files[line.slice('EnvironmentFile='.length).replace(/^-/, '')] ?? ''));
  return env;
}

describe('deploy/ as an operator runs it (issue 45 item 1)', () => {
  const unit = read('directory@.service');

  it('gives each systemd instance its own port and data directory, with the example file as its app.env', () => {
    const files = { '/etc/directory/app.env': read('app.env.example') };
    const a = systemdEnvironment(unit, '3001', files);
    const b = systemdEnvironment(unit, '3002', files);
    expect(a.PORT).toBe('3001');
    expect(b.PORT).toBe('3002');
    expect(a.DATA_DIR).not.toBe(b.DATA_DIR);
    // Both data directories are where the unit may write, and the server reads them as such.
    const writable = /ReadWritePaths=(\S+)/.exec(unit)![1];
    for (const env of [a, b]) {
      expect(env.DATA_DIR.startsWith(`${writable}/`)).toBe(true);
      expect(loadEnv({ ...env, SESSION_SECRET: 'a'.repeat(64) }).PORT).toBe(Number(env.PORT));
    }
    // The rule itself: a PORT in the file would win over the unit's (so the example must not set one).
    const withPort = systemdEnvironment(unit, '3002', { '/etc/directory/app.env': 'PORT=3000\n' });
    expect(withPort.PORT).toBe('3000');
    expect(envFile(read('app.env.example'))).not.toHaveProperty('PORT');
    expect(envFile(read('app.env.example'))).not.toHaveProperty('DATA_DIR');
  });

  it('builds an image whose user owns DATA_DIR, kept in a volume, from a pinned Node', () => {
    const dockerfile = read('Dockerfile');
    const dataDir = /ENV .*DATA_DIR=(\S+)/.exec(dockerfile)![1];
    const chown = dockerfile.indexOf(`chown node:node ${dataDir}`);
    const user = dockerfile.indexOf('USER node');
    expect(chown).toBeGreaterThan(0);
    expect(chown).toBeLessThan(user);
    expect(dockerfile).toContain(`VOLUME ${dataDir}`);
    for (const from of dockerfile.match(/^FROM \S+/gm)!) expect(from).toMatch(/^FROM node:20\.\d+-bookworm-slim/);
    // No fixed build id: a build without one takes its sources' hash (scripts/build-id.mjs).
    expect(dockerfile).toMatch(/^ARG BUILD_ID=$/m);
  });

  it('pins every compose image, gives the app a start period, and ignores the host files without BuildKit', () => {
    const compose = read('compose.yaml');
    const images = [...compose.matchAll(/image: (\S+)/g)].map((m) => m[1]);
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) expect(image, image).toMatch(/:[^:]*\d[^:]*$/);
    for (const image of images) expect(image).not.toMatch(/:latest$/);
    expect(compose).toMatch(/start_period: \d+s/);
    // The classic builder reads only the context root's .dockerignore (compose's context is the checkout).
    const ignore = fs.readFileSync(path.resolve(deploy, '../.dockerignore'), 'utf8').split('\n');
    for (const entry of ['.git', 'node_modules', 'dist', 'data', 'deploy/app.env']) expect(ignore).toContain(entry);
    expect(fs.existsSync(path.join(deploy, 'Dockerfile.dockerignore'))).toBe(false);
  });
});

describe('the build id (scripts/build-id.mjs)', () => {
  it('is BUILD_ID when set, else the sources hash without git: the same files give the same id, a change a new one', () => {
    const copy = (name: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `build-id-${name}-`));
      fs.mkdirSync(path.join(dir, 'src/client'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/client/main.tsx'), 'export const a = 1;\n');
      fs.writeFileSync(path.join(dir, 'package-lock.json'), '{}\n');
      return dir;
    };
    const one = copy('one');
    const two = copy('two');
    try {
      expect(resolveBuildId(one, { BUILD_ID: 'r42' })).toBe('r42');
      // Compose passes BUILD_ID empty (the Dockerfile's ARG): as unset.
      const first = resolveBuildId(one, { BUILD_ID: '' });
      expect(first).toMatch(/^[0-9a-f]{10}$/);
      expect(resolveBuildId(two, {})).toBe(first);
      fs.writeFileSync(path.join(two, 'src/client/main.tsx'), 'export const a = 2;\n');
      expect(resolveBuildId(two, {})).not.toBe(first);
    } finally {
      fs.rmSync(one, { recursive: true, force: true });
      fs.rmSync(two, { recursive: true, force: true });
    }
  });
});

describe("README's configuration table (issue 45 item 2)", () => {
  it('names every variable the server reads, and none it does not (but the tests own TEST_DATABASE_URL)', () => {
    const readme = fs.readFileSync(path.resolve(deploy, '../README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
    );
    const named = new Set<string>();
    for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
      const first = line.split('|')[1];
      for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) named.add(m[1]);
    }
    expect([...ENV_NAMES].filter((n) => !named.has(n))).toEqual([]);
    expect([...named].filter((n) => !ENV_NAMES.includes(n))).toEqual(['TEST_DATABASE_URL']);
  });
});
