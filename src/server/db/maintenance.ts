// What PostgreSQL's autovacuum does on a server, done for the embedded database (docs/decisions/0744).
// PGlite runs PostgreSQL in single-user mode: no autovacuum launcher, and its statistics count no dead
// rows, so nothing ever vacuums or analyses its tables. Without it the visibility map is never set (every
// index-only walk of directory_entries fetches the heap: a list page reads each entry's row again),
// statistics stay those of the last migration or seed, and no row is ever frozen.
import { sql } from 'drizzle-orm';
import { queryRows, type Database, type Db } from './client';

/**
 * `vacuum` (or `analyze`) of each of the database's own tables, one statement per table so requests
 * queued behind PGlite's one connection run between them. PostgreSQL (DATABASE_URL) keeps its own
 * autovacuum (deploy.md): nothing is done there. Returns the tables done.
 */
export async function maintainEmbedded(
  ctx: { db: Db; dbKind: Database['kind'] },
  what: 'vacuum' | 'analyze',
): Promise<string[]> {
  if (ctx.dbKind !== 'pglite') return [];
  const tables = await queryRows<{ name: string }>(
    ctx.db,
    sql`select quote_ident(relname) as name from pg_stat_user_tables where schemaname = 'public' order by relname`,
  );
  for (const t of tables) await ctx.db.execute(sql.raw(`${what} ${t.name}`));
  return tables.map((t) => t.name);
}
