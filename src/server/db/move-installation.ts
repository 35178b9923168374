// From the embedded default to PostgreSQL and a MediaStore (issue 24 item 6, docs/decisions/1001): every
// row of every table of one database is copied into another of the same schema version, sequences
// follow, then every file of a local media directory goes into the target store. Generic over the
// tables (the catalogue says which exist and what refers to what), so a table added later moves too.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { contentTypeOf, type LocalMediaStore, type MediaStore, type Visibility } from '../lib/media-store';
import { queryRows, type Db } from './client';

export interface MoveResult {
  rows: Record<string, number>;
  files: Record<Visibility, number>;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const BATCH = 2000;

async function tablesInOrder(db: Db): Promise<string[]> {
  const tables = (
    await queryRows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((r) => r.name);
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  // Parents before children, so every foreign key finds its row.
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const order: string[] = [];
  const placed = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (placed.has(t) || path.has(t)) return;
    path.add(t);
    for (const p of parents.get(t) ?? []) visit(p, path);
    placed.add(t);
    order.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return order;
}

async function columnsOf(db: Db, table: string) {
  return queryRows<{ name: string; always: boolean }>(
    db,
    sql`select column_name as name, (identity_generation = 'ALWAYS') as always from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`,
  );
}

async function count(db: Db, table: string) {
  const [row] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${ident(table)}`));
  return Number(row.n);
}

/** Copies every row of `from` into `to`, which must have no account yet (what migrations insert is replaced). */
export async function moveDatabase(from: Db, to: Db, log: (m: string) => void = () => {}) {
  if ((await count(to, 'accounts')) > 0) throw new Error('The target database already has accounts: not touched.');
  const tables = await tablesInOrder(from);
  const rows: Record<string, number> = {};
  await to.transaction(async (tx) => {
    // The copy is the source's state as it is, derived tables included (directory_entries and
    // directory_counts, kept by triggers): no trigger may add to it while rows arrive. Needs a superuser.
    await tx.execute(sql`set local session_replication_role = replica`);
    // What the target's migrations inserted (products, system ledger accounts...) gives way to the source's.
    // Only tables with rows, children first: the append-only ones (audit log, ledger) refuse it and start empty.
    const filled: string[] = [];
    for (const table of tables) if ((await count(tx as unknown as Db, table)) > 0) filled.push(table);
    for (const table of filled.reverse()) await tx.execute(sql.raw(`delete from ${ident(table)}`));
    for (const table of tables) {
      const cols = await columnsOf(from, table);
      const list = cols.map((c) => ident(c.name)).join(', ');
      const overriding = cols.some((c) => c.always) ? ' overriding system value' : '';
      let copied = 0;
      for (;;) {
        // Rows travel as JSON, which every column type reads back from (timestamps, jsonb, arrays, bytea).
        // In the rows' physical order (ctid: unique and stable while nothing writes), so no batch repeats or
        // skips a row: a first column may repeat (search_postings' word, decision 0748).
        const [batch] = await queryRows<{ rows: string | null }>(
          from,
          sql.raw(
            `select json_agg(t)::text as rows from (select ${list} from ${ident(table)} order by ctid limit ${BATCH} offset ${copied}) t`,
          ),
        );
        if (!batch.rows) break;
        const n = (JSON.parse(batch.rows) as unknown[]).length;
        await tx.execute(
          sql`${sql.raw(`insert into ${ident(table)} (${list})${overriding} select ${list} from json_populate_recordset(null::${ident(table)},`)} ${batch.rows}::json)`,
        );
        copied += n;
        if (n < BATCH) break;
      }
      rows[table] = copied;
      if (copied) log(`${table}: ${copied} rows`);
    }
    // Sequences carry on where they were, so the next account or picture gets a new id.
    const sequences = await queryRows<{ name: string; value: string | null }>(
      from,
      sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
    );
    for (const s of sequences)
      if (s.value !== null) await tx.execute(sql`select setval(${ident(s.name)}, ${s.value}::bigint, true)`);
  });
  for (const table of tables) {
    const there = await count(to, table);
    if (there !== rows[table]) throw new Error(`${table}: ${rows[table]} rows copied, ${there} found in the target`);
  }
  return rows;
}

/** Every file of a local media directory into `to` (public and private sides kept apart). */
export async function moveMedia(from: LocalMediaStore, to: MediaStore, log: (m: string) => void = () => {}) {
  const files: Record<Visibility, number> = { public: 0, private: 0 };
  if (to instanceof Object && 'root' in to && (to as LocalMediaStore).root === from.root) return files;
  for (const visibility of ['public', 'private'] as const) {
    const keys: string[] = [];
    for await (const key of from.list(visibility)) keys.push(key);
    let next = 0;
    // A few at a time: object storage answers each PUT in milliseconds, not in sequence.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < keys.length) {
          const key = keys[next++];
          await to.putFile(visibility, key, path.join(from.dir(visibility), key), contentTypeOf(key));
          files[visibility]++;
        }
      }),
    );
    log(`${visibility} media: ${files[visibility]} files`);
  }
  return files;
}

export async function moveInstallation(
  from: { db: Db; media: LocalMediaStore },
  to: { db: Db; media: MediaStore },
  log: (m: string) => void = () => {},
): Promise<MoveResult> {
  // Files first: should the database copy fail, a second run finds an empty target again.
  const files = await moveMedia(from.media, to.media, log);
  const rows = await moveDatabase(from.db, to.db, log);
  return { rows, files };
}
