// SQL of the directory version (docs/decisions/0700, 0730, 0731): one statement that reads the version,
// the next expiry, the live figures of the profiles named and the versions of the scopes named. What it
// means and when it is read again is directory.version.ts's.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

/**
 * The version read as one statement's text (the bench's node:http reference sends the same): the counter,
 * the database's token and start time, the next expiry, tour start or end of "available now" after `at`
 * (epoch ms; a literal, see readVersionRow) and, when profiles are named (integers, checked by the caller),
 * their live figures, and the scopes named. The work is the function of migration 0018 (decision 0731):
 * its inner statements' plans are kept per connection, where this text built per batch was planned on
 * every read (4 ms of planning for 2.5 ms of work, the cost of every cached answer).
 */
export function versionStatement(at: number, profileIds: number[] = [], scopes: string[] = []): string {
  const keys = scopes.length ? `array[${scopes.map(literal).join(', ')}]::text[]` : `'{}'::text[]`;
  const ids = profileIds.length ? `array[${profileIds.join(',')}]::int[]` : `'{}'::int[]`;
  return `select o_version as version, o_next as next, o_live as live, o_base as base, o_scopes as scopes
    from directory_read_versions('${new Date(at).toISOString()}'::timestamptz, ${keys}, ${ids})`;
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * One read of versionStatement. Raw SQL: one string made by the database from its own functions, on every
 * request's path (docs/decisions/0915); the moment is a literal (toISOString() has no quote), so the
 * statement has no parameter and takes the simple protocol: a bound parameter measured ~0.3 ms more per
 * read.
 */
export async function readVersionRow(db: Db, at: number, profileIds: number[], scopes: string[]) {
  const [row] = await queryRows<{
    version: string;
    next: string | null;
    live?: unknown;
    base?: string;
    scopes?: unknown;
  }>(db, sql.raw(versionStatement(at, profileIds, scopes)));
  return row;
}
