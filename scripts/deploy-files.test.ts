// The deployment files (deploy/) name only variables the server reads, and what production needs
// (issue 24, item 7): a variable renamed in src/server/env.ts and not in them fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES, loadEnv } from '../src/server/env';

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
