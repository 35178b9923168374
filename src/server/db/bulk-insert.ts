// Fast multi-row inserts for imports and the demo seed. A batch goes to the database as ONE jsonb
// parameter expanded by jsonb_to_recordset: on PGlite this is about three times faster than a
// VALUES list with a bound parameter per cell, and it never hits the 65,535-parameter limit.
import { getTableColumns, sql, type Table } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

type Executor = Pick<Db | Tx, 'execute'>;

const RECORD_TYPE: Record<string, string> = { serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' };

/**
 * Inserts rows given with the schema's property names (`countryCode`, not `country_code`). Every row
 * of a call must carry the same keys; columns left out take their defaults. Dates may be Date objects.
 */
export async function bulkInsert<T extends PgTable>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Partial<T['$inferInsert']>>,
  chunkSize = 2000,
): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(table as Table);
  const keys = Object.keys(rows[0]);
  const cols = keys.map((key) => {
    const col = columns[key];
    if (!col) throw new Error(`bulkInsert: ${getTableConfig(table).name} has no column ${key}`);
    const type = col.getSQLType();
    return { key, name: col.name, type: RECORD_TYPE[type] ?? type };
  });
  const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const target = sql.raw(`${ident(getTableConfig(table).name)} (${cols.map((c) => ident(c.name)).join(', ')})`);
  const select = sql.raw(cols.map((c) => ident(c.key)).join(', '));
  const shape = sql.raw(cols.map((c) => `${ident(c.key)} ${c.type}`).join(', '));
  for (let i = 0; i < rows.length; i += chunkSize) {
    const json = JSON.stringify(rows.slice(i, i + chunkSize));
    await db.execute(
      sql`insert into ${target} select ${select} from jsonb_to_recordset(${json}::jsonb) as x(${shape})`,
    );
  }
}

/** Takes `count` ids from a serial column's sequence, so related rows can be built before inserting. */
export async function allocateIds(db: Executor, table: string, count: number, column = 'id'): Promise<number[]> {
  if (count <= 0) return [];
  const res = await db.execute(
    sql`select nextval(pg_get_serial_sequence(${table}, ${column}))::int as id from generate_series(1, ${count}::int)`,
  );
  return rowsOf<{ id: number | string }>(res).map((r) => Number(r.id));
}

/** Rows of a raw `execute` result; both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
