// Test database for the geo and seed tests: PGlite in memory, or, in the "postgres" test project
// (TEST_DB_BACKEND=postgres, TEST_DATABASE_URL set), a throwaway database dropped on close.
import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../db/client';

export const testBackend = (process.env.TEST_DB_BACKEND ?? 'pglite') as 'pglite' | 'postgres';

export async function openTestDatabase(prefix: string): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (testBackend !== 'postgres') return openDatabase({});
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  await admin(url, `create database "${name}"`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      await admin(url, `drop database if exists "${name}" with (force)`);
    },
  };
}

async function admin(url: string, query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}
