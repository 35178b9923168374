// Migrated database templates for the tests (vitest globalSetup). Opening an empty PGlite and running the
// migrations cost 6 s on an idle machine and 12-18 s on CI's loaded one, once per test app; starting from an
// image of a migrated data directory costs about 1 s. On PostgreSQL each test's scratch database is created
// from a migrated template database instead of template1. Both are named by a hash of the migrations (and
// PGlite's version), so a changed migration makes a new template and a stale one is never used; every open
// still runs the migrator, which finds nothing to apply.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data directory (dumpDataDir), for the pglite project. */
    pgliteTemplate: string;
    /** The name of a migrated database next to TEST_DATABASE_URL's, for the postgres project. */
    postgresTemplate: string;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.join(here, '..', 'db', 'migrations');

/** The migrations' and PGlite's fingerprint: a template made from other migrations is never reused. */
export function templateHash(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(fs.readFileSync(file));
    }
  };
  walk(migrationsDir);
  const pglite = JSON.parse(
    fs.readFileSync(
      path.join(here, '..', '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json'),
      'utf8',
    ),
  ) as { version: string };
  hash.update(pglite.version);
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(hash: string): Promise<string> {
  const dir = path.join(os.tmpdir(), 'directory-test-templates');
  const file = path.join(dir, `pglite-${hash}.tar`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const database = await openDatabase({});
  try {
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const image = await client.dumpDataDir('none');
    // Written under another name and renamed: a run that stops half-way leaves no truncated template.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

async function postgresTemplate(url: string, hash: string): Promise<string> {
  const name = `directory_tpl_${hash}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    // Migrated under a name of its own, then renamed: a template is complete or absent.
    const building = `${name}_${crypto.randomBytes(4).toString('hex')}`;
    await admin.query(`create database "${building}"`);
    const u = new URL(url);
    u.pathname = `/${building}`;
    const database = await openDatabase({ url: u.toString(), poolSize: 1 });
    await database.close();
    try {
      await admin.query(`alter database "${building}" rename to "${name}"`);
    } catch (err) {
      // Another run made it first: use theirs.
      await admin.query(`drop database if exists "${building}"`);
      const again = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!again.rowCount) throw err;
    }
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const hash = templateHash();
  const backend = project.config.env?.TEST_DB_BACKEND ?? 'pglite';
  if (backend === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres project');
    project.provide('postgresTemplate', await postgresTemplate(url, hash));
  } else {
    project.provide('pgliteTemplate', await pgliteTemplate(hash));
  }
}
