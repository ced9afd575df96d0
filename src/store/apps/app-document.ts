import { rmSync } from 'node:fs'
import type { Statement } from 'better-sqlite3'
import type { Db } from '../engine/db.js'
import type { SequenceName } from '../engine/id-blocks.js'
import type { Engine } from '../engine/index.js'
import type { Seqs } from '../engine/item-seqs.js'
import { appTables } from './app-rows.js'

// Every row of one app, as its tables hold them: what GET /_sandbox/app/export writes into the
// app's document, and what POST /_sandbox/app/import writes back (across/app/transfer.ts says
// what the document is). Like the reset (app-rows.ts), the tables are read from the schema: the
// tables with an `app_key`, and the tables that cascade from one of them (a schedule's recipients,
// a callback's attempts, a push schedule's firings), so a table a later migration adds travels in
// the document without a line here.
//
// Neither direction holds the event loop for long, whatever the app holds (issue 33): every step
// here is synchronous and small (a page of rows read, a chunk written), and the control plane
// yields to other requests between steps (across/app/export.ts, import.ts).
// - Export: a table is read a page at a time between other writes: owned rowid tables by windows
//   of rowids up to the largest rowid when the table's reading began, the others by their primary
//   key. So the document is not one instant: rows written while it streams may or may not be in
//   it. What keeps it importable: a row is written only with the row it refers to (a code with its
//   message, a delivery with its push, an attempt with its callback), the parents' keys being kept
//   while the parents are written.
// - Import: the document's rows are first staged in a database file of their own (ATTACH'd as
//   `stage`, each table with its primary key, so a row given twice is refused), checked there as a
//   whole (references, ids other apps hold), and only then written into the app's tables a chunk
//   at a time, the app closed meanwhile (its due work waits: `CLOSED_OFFSET`; its requests wait:
//   across/app/transfer.ts). A document refused at any check changed nothing.

/** A BLOB's bytes (an image, a certificate) travel in JSON as base64. */
export type Bytes = { base64: string }
export type Value = string | number | null | Bytes
export type Row = Record<string, Value>
export type Tables = Record<string, Row[]>

/** What SQLite says of one column. */
export interface Column {
  name: string
  /** Declared type: INTEGER, TEXT, BLOB, REAL, or '' (none). */
  type: string
  notNull: boolean
  /** The value SQLite gives a row that leaves the column out (its DEFAULT, else null). */
  default: string | number | null
}

/** A reference from a table's rows to another table of the document (a foreign key, or a link). */
export interface Reference {
  table: string
  /** The referring columns (app_key left out: both rows are the app's). */
  from: readonly string[]
  to: readonly string[]
}

export interface DocumentTable {
  name: string
  /** Every column of the table, in order. */
  columns: readonly Column[]
  /** The columns the document holds (`app_key` and the local ones left out). */
  exported: readonly string[]
  /** Has `app_key` (else a child: rows found through `parent`). */
  owned: boolean
  /** A child's link to the owned table it cascades from: `child.from = parent.to`. */
  parent?: Reference
  /** Rows of the document it refers to: each referred row must be in the document too. */
  references: Reference[]
  withoutRowid: boolean
  /** Primary key columns, `app_key` left out. */
  key: readonly string[]
  /** Its key is one row in the whole sandbox (a msg_id, a schedule_id): no other app may hold it. */
  global: boolean
}

/**
 * Columns the document leaves out of a table: what the importing app keeps as its own (its
 * appKey, credentials, developer, whether it expires when idle), what is local to one sandbox
 * (the order of every app's activity), or said elsewhere in the document (the clock).
 */
const LOCAL: Record<string, readonly string[]> = {
  apps: ['master_secret', 'dev_key', 'clock_offset_ms'],
  app_activity: ['activity', 'idle_since'],
}

/**
 * References the schema does not declare as foreign keys but the sandbox reads as such: a report
 * is its message's (the SMS inspection joins them by msg_id alone).
 */
const LINKS: Record<string, readonly Reference[]> = {
  reports: [{ table: 'messages', from: ['msg_id'], to: ['msg_id'] }],
}

/** Where the ids of the global sequences (id-blocks.ts) appear: an import skips past them. */
export const SEQUENCE_COLUMNS: Record<
  SequenceName,
  ReadonlyArray<readonly [table: string, column: string]>
> = {
  msg_id: [
    ['messages', 'msg_id'],
    ['reports', 'msg_id'],
    ['codes', 'msg_id'],
    ['schedule_recipients', 'msg_id'],
    ['push_deliveries', 'sms_msg_id'],
  ],
  temp_id: [['templates', 'temp_id']],
  sign_id: [['signs', 'sign_id']],
  // '181' and the counter in 14 digits (push/send/delivery/dispatch.ts).
  push_msg_id: [
    ['pushes', 'msg_id'],
    ['push_schedule_firings', 'msg_id'],
  ],
  callback_id: [['callbacks', 'id']],
  reply_id: [['replies', 'id']],
}

/**
 * The clock offset of an app whose import is being written: its clock stands so far in the past
 * that none of its work is due (every due query compares its rows' times with the app's clock,
 * store/engine/due.ts), so the scheduler leaves its half-written rows alone. The last chunk sets
 * the document's clock. A process stopped half-way finds the app so at its next start and resets
 * it (app.ts): nothing of a half import stays.
 */
export const CLOSED_OFFSET = -(2 ** 52)

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The value of a column's DEFAULT clause (SQL text), as SQLite computes it. */
function defaultOf(db: Db, sql: string | null): string | number | null {
  if (sql === null) return null
  return db.prepare<[], string | number | null>(`SELECT ${sql}`).pluck().get() ?? null
}

/** The app's tables and their children, parents first (the order rows are written back in). */
function documentTables(db: Db): DocumentTable[] {
  const owned = appTables(db).reverse()
  type Info = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }
  const info = (t: string) =>
    db
      .prepare<[string], Info>('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)')
      .all(t)
  const keys = (t: string) =>
    db
      .prepare<
        [string],
        { id: number; seq: number; table: string; from: string; to: string; on_delete: string }
      >('SELECT id, seq, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq')
      .all(t)
  const withoutRowid = (t: string) =>
    /WITHOUT\s+ROWID/i.test(
      db
        .prepare<[string], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
        .pluck()
        .get(t) ?? '',
    )
  /** Foreign keys grouped by constraint, app_key left out of both sides. */
  const referencesOf = (t: string): Reference[] => {
    const byId = new Map<number, { table: string; from: string[]; to: string[] }>()
    for (const k of keys(t)) {
      const ref = byId.get(k.id) ?? { table: k.table, from: [], to: [] }
      if (k.from !== 'app_key') {
        ref.from.push(k.from)
        ref.to.push(k.to)
      }
      byId.set(k.id, ref)
    }
    return [...byId.values()].filter(r => r.table !== 'apps' && r.from.length > 0)
  }
  const make = (name: string, isOwned: boolean): DocumentTable => {
    const cols = info(name)
    const local = LOCAL[name] ?? []
    const key = cols
      .filter(c => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map(c => c.name)
    const references = [...referencesOf(name), ...(LINKS[name] ?? [])]
    return {
      name,
      columns: cols.map(c => ({
        name: c.name,
        type: c.type.toUpperCase(),
        notNull: c.notnull === 1,
        default: defaultOf(db, c.dflt_value),
      })),
      exported: cols.map(c => c.name).filter(c => c !== 'app_key' && !local.includes(c)),
      owned: isOwned,
      references,
      withoutRowid: withoutRowid(name),
      key: key.filter(c => c !== 'app_key'),
      global: isOwned && key.length > 0 && !key.includes('app_key'),
    }
  }
  const tables = owned.map(name => make(name, true))
  const children = db
    .prepare<[], { name: string }>(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
         AND NOT EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'app_key') ORDER BY m.name`,
    )
    .all()
    .map(r => r.name)
  for (const name of children) {
    const link = keys(name).find(k => owned.includes(k.table) && k.on_delete === 'CASCADE')
    // Global tables (developers, sequences) belong to no app.
    if (!link) continue
    const table = make(name, false)
    table.parent = { table: link.table, from: [link.from], to: [link.to] }
    tables.push(table)
  }
  // Global tables (developers) are no document's: a reference to them is not the document's to keep.
  const names = new Set(tables.map(t => t.name))
  for (const t of tables) t.references = t.references.filter(r => names.has(r.table) && r.table !== t.name)
  // Each table after every table it refers to (a link counts as a foreign key): the export keeps
  // the keys of a table before the rows that refer to them, the import writes parents first.
  const ordered: DocumentTable[] = []
  const left = [...tables]
  while (left.length > 0) {
    const i = left.findIndex(t =>
      [...(t.parent ? [t.parent] : []), ...t.references].every(r => !left.some(o => o.name === r.table)),
    )
    if (i < 0) throw new Error(`references between ${left.map(t => t.name).join(', ')} form a cycle`)
    ordered.push(...left.splice(i, 1))
  }
  return ordered
}

/** A column's value as the document writes it: a BLOB (a Buffer) as base64. */
function toJson(v: unknown): Value {
  if (v instanceof Uint8Array) return { base64: Buffer.from(v).toString('base64') }
  return (v ?? null) as Value
}

/** A document's value as SQLite takes it: base64 back to the BLOB's bytes. */
function fromJson(v: Value | undefined): string | number | null | Buffer {
  if (v === undefined) return null
  return v !== null && typeof v === 'object' ? Buffer.from(v.base64, 'base64') : v
}

/** A row the import refuses, and why (SQLite's words for a constraint, or the rules'). */
export class RowRefused extends Error {
  constructor(
    readonly table: string,
    readonly index: number,
    readonly column: string | undefined,
    readonly why: string,
    /** Another app of the sandbox holds its id. */
    readonly taken = false,
  ) {
    super(why)
    this.name = 'RowRefused'
  }
}

/** The key a referred row is known by, for the export's filter: its columns joined. */
const keyOf = (row: Record<string, unknown>, columns: readonly string[]): unknown =>
  columns.length === 1 ? row[columns[0]!] : columns.map(c => String(row[c])).join('\u0000')

/** Rows examined by one page of an export (a window of rowids, or a page of keys). */
const PAGE = 250
/** Parent keys per query of a child table's export. */
const PARENTS_PER_QUERY = 100

/**
 * Reads and writes one app's rows in every table, for the app's document. What it finds in the
 * schema (the tables, their columns, keys and defaults: ≈ 260 statements of introspection) and its
 * removal's statements are made on the first export, import or removal, not at every start
 * (docs/performance.md, "The start and idle memory").
 */
export function createAppDocument(engine: Engine) {
  const { db } = engine
  let document: ReturnType<typeof documentReader> | undefined
  const made = () => {
    if (document === undefined) document = documentReader(engine)
    return document
  }
  let removal: ReturnType<typeof createChunkedRemoval> | undefined
  return {
    /** Every table a document holds, parents first. */
    get tables(): readonly DocumentTable[] {
      return made().tables
    },
    table: (name: string): DocumentTable | undefined => made().byName.get(name),
    /** The tables a document may hold, and each one's columns (those it leaves out excluded). */
    columnsOf(table: string): readonly string[] | undefined {
      return made().byName.get(table)?.exported
    },
    exportReader: (appKey: string) => made().exportReader(appKey),
    /** Every row of the app at once (small apps and tests: the export streams `exportReader`). */
    read(appKey: string): Tables {
      const { tables, exportReader } = made()
      const reader = exportReader(appKey)
      const out: Tables = {}
      for (const t of tables) out[t.name] = [...reader.pages(t.name)].flat()
      return out
    },
    /** An import's staging database (see the header), at `path`: a file of its own, removed after. */
    stage: (path: string) => createStaging(engine, made().tables, path),
    /** The app's rows removed a chunk at a time (an import replaces them). */
    get removal(): ReturnType<typeof createChunkedRemoval> {
      if (removal === undefined) removal = createChunkedRemoval(db, engine.seqs)
      return removal
    },
    /** Apps whose import a stopped process left half-written (CLOSED_OFFSET). */
    closedApps(): string[] {
      return db
        .prepare<[number], string>('SELECT app_key FROM apps WHERE clock_offset_ms = ?')
        .pluck()
        .all(CLOSED_OFFSET)
    },
  }
}

/** The schema as the document sees it, and the export's statements, made once (`createAppDocument`). */
function documentReader(engine: Engine) {
  const { db } = engine
  const tables = documentTables(db)
  const byName = new Map(tables.map(t => [t.name, t]))
  /** The tables another table refers to: the export keeps the keys it wrote of them. */
  const referred = new Map<string, readonly string[]>()
  for (const t of tables)
    for (const r of t.parent ? [t.parent, ...t.references] : t.references) referred.set(r.table, r.to)

  // Export statements, per table.
  const rowidBounds = new Map<
    string,
    { min: Statement<[], number | null>; max: Statement<[], number | null> }
  >()
  const nextRowid = new Map<string, Statement<[number], number | null>>()
  const window = new Map<
    string,
    Statement<{ app: string; lo: number; hi: number }, Record<string, unknown>>
  >()
  const keyPage = new Map<
    string,
    {
      first: Statement<unknown[], Record<string, unknown>>
      after: Statement<unknown[], Record<string, unknown>>
    }
  >()
  for (const t of tables) {
    const name = quote(t.name)
    const order = t.key.map(quote).join(', ')
    if (t.owned && !t.withoutRowid) {
      rowidBounds.set(t.name, {
        min: db.prepare<[], number | null>(`SELECT min(rowid) FROM ${name}`).pluck(),
        max: db.prepare<[], number | null>(`SELECT max(rowid) FROM ${name}`).pluck(),
      })
      nextRowid.set(
        t.name,
        db.prepare<[number], number | null>(`SELECT min(rowid) FROM ${name} WHERE rowid >= ?`).pluck(),
      )
      window.set(
        t.name,
        db.prepare(
          `SELECT * FROM ${name} WHERE rowid >= @lo AND rowid < @hi AND +app_key = @app ORDER BY rowid`,
        ),
      )
    } else if (t.owned) {
      if (t.key.length === 0) {
        const all = db.prepare<unknown[], Record<string, unknown>>(`SELECT * FROM ${name} WHERE app_key = ?`)
        keyPage.set(t.name, { first: all, after: all })
        continue
      }
      const cursor = `(${order}) > (${t.key.map(() => '?').join(', ')})`
      keyPage.set(t.name, {
        first: db.prepare(`SELECT * FROM ${name} WHERE app_key = ? ORDER BY ${order} LIMIT ${PAGE}`),
        after: db.prepare(
          `SELECT * FROM ${name} WHERE app_key = ? AND ${cursor} ORDER BY ${order} LIMIT ${PAGE}`,
        ),
      })
    } else {
      const from = quote(t.parent!.from[0]!)
      const cursor = `(${order}) > (${t.key.map(() => '?').join(', ')})`
      const parents = `${from} IN (SELECT value FROM json_each(?))`
      keyPage.set(t.name, {
        first: db.prepare(`SELECT * FROM ${name} WHERE ${parents} ORDER BY ${order} LIMIT ${PAGE}`),
        after: db.prepare(
          `SELECT * FROM ${name} WHERE ${parents} AND ${cursor} ORDER BY ${order} LIMIT ${PAGE}`,
        ),
      })
    }
  }

  /** A row as the document holds it: its exported columns, BLOBs as base64. */
  const exportRow = (t: DocumentTable, row: Record<string, unknown>): Row => {
    const kept: Row = {}
    for (const c of t.exported) kept[c] = toJson(row[c])
    return kept
  }

  /**
   * The app's rows, table by table (parents first), a page at a time: `pages(table)` gives
   * synchronous pages, each a bounded amount of work; the caller yields to other requests between
   * them. A row that refers to another table's row comes only if that row came (see the header).
   */
  function exportReader(appKey: string) {
    const written = new Map<string, Set<unknown>>()
    const keep = (t: DocumentTable, rows: Array<Record<string, unknown>>) => {
      const to = referred.get(t.name)
      if (!to) return
      const set = written.get(t.name) ?? new Set()
      written.set(t.name, set)
      for (const r of rows) set.add(keyOf(r, to))
    }
    /** Whether every row this one refers to was written. */
    const complete = (t: DocumentTable, row: Record<string, unknown>) =>
      t.references.every(ref => {
        if (ref.from.some(c => row[c] === null || row[c] === undefined)) return true
        return written.get(ref.table)?.has(keyOf(row, ref.from)) === true
      })
    const finish = (t: DocumentTable, rows: Array<Record<string, unknown>>): Row[] => {
      const whole = t.references.length === 0 ? rows : rows.filter(r => complete(t, r))
      keep(t, whole)
      return whole.map(r => exportRow(t, r))
    }

    function* byRowid(t: DocumentTable): Generator<Row[]> {
      const bounds = rowidBounds.get(t.name)!
      // Rows made after this point are left out: the table's reading has a start.
      const last = bounds.max.get() ?? null
      let lo: number | null = bounds.min.get() ?? null
      while (lo !== null && last !== null && lo <= last) {
        const hi = Math.min(lo + PAGE, last + 1)
        const rows = window.get(t.name)!.all({ app: appKey, lo, hi })
        if (rows.length > 0) yield finish(t, rows)
        lo = hi > last ? null : (nextRowid.get(t.name)!.get(hi) ?? null)
      }
    }

    function* byKey(t: DocumentTable, args: unknown[]): Generator<Row[]> {
      const page = keyPage.get(t.name)!
      let rows = page.first.all(...args)
      for (;;) {
        if (rows.length > 0) yield finish(t, rows)
        if (rows.length < PAGE || t.key.length === 0) return
        const lastRow = rows.at(-1)!
        rows = page.after.all(...args, ...t.key.map(c => lastRow[c]))
      }
    }

    function* children(t: DocumentTable): Generator<Row[]> {
      const parents = [...(written.get(t.parent!.table) ?? [])]
      for (let i = 0; i < parents.length; i += PARENTS_PER_QUERY)
        yield* byKey(t, [JSON.stringify(parents.slice(i, i + PARENTS_PER_QUERY))])
    }

    return {
      pages(table: string): Generator<Row[]> {
        const t = byName.get(table)!
        if (!t.owned) return children(t)
        return t.withoutRowid ? byKey(t, [appKey]) : byRowid(t)
      },
    }
  }

  return { tables: tables as readonly DocumentTable[], byName, exportReader }
}

export type AppDocumentStore = ReturnType<typeof createAppDocument>

/** Where the staging rows' order and document index are kept. */
const ORDER = '~r'
const INDEX = '~i'

/**
 * One import's rows, staged apart (see the header), and the steps that check them and write them
 * into the app's tables. Each step is synchronous and bounded (`limit` rows); the writing steps
 * run inside write jobs.
 */
function createStaging(engine: Engine, tables: readonly DocumentTable[], path: string) {
  const { db } = engine
  db.prepare('ATTACH DATABASE ? AS stage').run(path)
  let open = true
  const counts = new Map<string, number>()
  const inserts = new Map<string, Statement<unknown[]>>()
  try {
    db.exec('PRAGMA stage.journal_mode = OFF; PRAGMA stage.synchronous = OFF')
    for (const t of tables) {
      const cols = t.exported.map(quote)
      db.exec(
        `CREATE TABLE stage.${quote(t.name)} (${quote(ORDER)} INTEGER PRIMARY KEY, ${quote(INDEX)} INTEGER NOT NULL, ${cols.join(', ')})`,
      )
      // A row given twice is refused as SQLite would refuse it, before anything is written.
      if (t.key.length > 0)
        db.exec(
          `CREATE UNIQUE INDEX stage.${quote(`${t.name}~key`)} ON ${quote(t.name)} (${t.key.map(quote).join(', ')})`,
        )
      // The referred rows are found by their key (the unique index above, or this one).
      inserts.set(
        t.name,
        db.prepare(
          `INSERT INTO stage.${quote(t.name)} (${quote(INDEX)}, ${cols.join(', ')}) VALUES (${['?', ...cols.map(() => '?')].join(', ')})`,
        ),
      )
      counts.set(t.name, 0)
    }
  } catch (err) {
    close()
    throw err
  }
  const inStage = db.transaction((fn: () => void) => fn())

  function close(): void {
    if (!open) return
    open = false
    try {
      db.exec('DETACH DATABASE stage')
    } finally {
      rmSync(path, { force: true })
      rmSync(`${path}-journal`, { force: true })
    }
  }

  const byName = new Map(tables.map(t => [t.name, t]))
  const stageRange = (table: string) => ({
    max: db.prepare<[], number | null>(`SELECT max(${quote(ORDER)}) FROM stage.${quote(table)}`).pluck(),
  })

  return {
    /** How many rows of each table the document holds. */
    counts: counts as ReadonlyMap<string, number>,
    /**
     * Stages rows of one table (already checked by the rules, `index` their place in the
     * document), in one transaction of the staging file. A key given twice throws RowRefused.
     */
    add(table: string, rows: ReadonlyArray<{ index: number; row: Row }>): void {
      const t = byName.get(table)!
      const insert = inserts.get(table)!
      inStage(() => {
        for (const { index, row } of rows) {
          try {
            insert.run(index, ...t.exported.map(c => fromJson(row[c])))
          } catch (err) {
            const e = err as Error & { code?: string }
            if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
              const key = t.key.map(c => `${c} ${JSON.stringify(row[c])}`).join(', ')
              throw new RowRefused(table, index, undefined, `${key} is there twice`)
            }
            throw err
          }
        }
      })
      counts.set(table, (counts.get(table) ?? 0) + rows.length)
    },
    /**
     * Checks up to `limit` staged rows of `table` from staging row `after` (exclusive) against
     * the rest of the document (a row it refers to must be there) and the sandbox (no other app
     * may hold its key). Returns the last row checked, or null once the table is done; throws
     * RowRefused.
     */
    check(appKey: string, table: string, after: number, limit: number): number | null {
      const t = byName.get(table)!
      const last = stageRange(table).max.get() ?? null
      if (last === null || after >= last) return null
      const upto = Math.min(after + limit, last)
      const within = `s.${quote(ORDER)} > ${after} AND s.${quote(ORDER)} <= ${upto}`
      for (const ref of t.parent ? [t.parent, ...t.references] : t.references) {
        const present = ref.from.map(c => `s.${quote(c)} IS NOT NULL`).join(' AND ')
        const match = ref.to.map((c, i) => `p.${quote(c)} = s.${quote(ref.from[i]!)}`).join(' AND ')
        const dangling = db
          .prepare<[], Record<string, unknown>>(
            `SELECT s.* FROM stage.${quote(table)} s WHERE ${within} AND ${present}
               AND NOT EXISTS (SELECT 1 FROM stage.${quote(ref.table)} p WHERE ${match}) LIMIT 1`,
          )
          .get()
        if (dangling) {
          const key = ref.from.map(c => `${c} ${JSON.stringify(dangling[c])}`).join(', ')
          throw new RowRefused(
            table,
            Number(dangling[INDEX]),
            ref.from.length === 1 ? ref.from[0] : undefined,
            `${key} names no row of the document's ${ref.table}: a row may only refer to rows of its own app`,
          )
        }
      }
      if (t.global) {
        const match = t.key.map(c => `m.${quote(c)} = s.${quote(c)}`).join(' AND ')
        const taken = db
          .prepare<[string], Record<string, unknown>>(
            `SELECT s.* FROM stage.${quote(table)} s JOIN main.${quote(table)} m ON ${match}
               WHERE ${within} AND m.app_key <> ? LIMIT 1`,
          )
          .get(appKey)
        if (taken) {
          const key = t.key.map(c => `${c} ${JSON.stringify(taken[c])}`).join(', ')
          throw new RowRefused(
            table,
            Number(taken[INDEX]),
            undefined,
            `${key} is held by another app of this sandbox`,
            true,
          )
        }
      }
      return upto
    },
    /** The largest value of a staged column (ids, seqs): `digitsFrom` reads the digits after a prefix. */
    largest(table: string, column: string, digitsFrom = 0): number {
      const expr =
        digitsFrom === 0 ? quote(column) : `CAST(substr(${quote(column)}, ${digitsFrom + 1}) AS INTEGER)`
      const v = db
        .prepare<[], number | null>(`SELECT max(${expr}) FROM stage.${quote(table)}`)
        .pluck()
        .get()
      return typeof v === 'number' ? v : 0
    },
    /** The staged row of a table that holds one (the `apps` row), as the document gave it. */
    only(table: string): Record<string, unknown> | undefined {
      return db.prepare<[], Record<string, unknown>>(`SELECT * FROM stage.${quote(table)} LIMIT 1`).get()
    },
    /**
     * Inside a write job: writes staged rows of `table` from staging row `after` (exclusive), at
     * most `limit`, into the app's table, with `extra` columns (`app_key`, and the local ones the
     * importing app keeps). Returns the last row written, or null once the table is done.
     */
    write(
      appKey: string,
      table: string,
      after: number,
      limit: number,
      extra: Record<string, string | number | null> = {},
      leaveOut: readonly string[] = [],
    ): number | null {
      const t = byName.get(table)!
      const last = stageRange(table).max.get() ?? null
      if (last === null || after >= last) return null
      const upto = Math.min(after + limit, last)
      const cols = t.exported.filter(c => !leaveOut.includes(c) && !(c in extra))
      const given = t.owned ? { app_key: appKey, ...extra } : extra
      const names = [...cols, ...Object.keys(given)].map(quote).join(', ')
      const values = [...cols.map(quote), ...Object.keys(given).map(c => `@${c}`)].join(', ')
      db.prepare(
        `INSERT INTO main.${quote(table)} (${names}) SELECT ${values} FROM stage.${quote(table)}
           WHERE ${quote(ORDER)} > ${after} AND ${quote(ORDER)} <= ${upto} ORDER BY ${quote(ORDER)}`,
      ).run(given)
      return upto
    },
    /**
     * Inside the last write job: the app's own row takes the document's values (`overrides`
     * where the importing app keeps its own), and nothing of the app stays cached or bounded.
     */
    finish(appKey: string, overrides: Record<string, string | number | null> = {}): void {
      const cols = byName.get('apps')!.exported
      const set = cols.map(c =>
        c in overrides ? `${quote(c)} = @${c}` : `${quote(c)} = (SELECT ${quote(c)} FROM stage.apps LIMIT 1)`,
      )
      db.prepare(`UPDATE main.apps SET ${set.join(', ')} WHERE app_key = @app_key`).run({
        ...overrides,
        app_key: appKey,
      })
      engine.forgetApp(appKey)
    },
    /** Lets go of the staging file (and removes it). */
    close,
  }
}

export type Staging = ReturnType<typeof createStaging>

/**
 * Removing an app's rows a chunk at a time (an import replaces them): `step(appKey, limit)` deletes
 * at most `limit` rows of one table, children first, and says whether any are left. The `apps`
 * row stays. Inside write jobs.
 */
export function createChunkedRemoval(db: Db, seqs: Pick<Seqs, 'carryOver'>) {
  const owned = appTables(db).filter(t => t !== 'apps')
  const keyOfTable = (t: string) =>
    db
      .prepare<[string], { name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?)')
      .all(t)
      .filter(c => c.pk > 0 && c.name !== 'app_key')
      .sort((a, b) => a.pk - b.pk)
      .map(c => c.name)
  const withoutRowid = (t: string) =>
    /WITHOUT\s+ROWID/i.test(
      db.prepare<[string], string>('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(t) ?? '',
    )
  const deletes = owned.map(t => {
    const name = quote(t)
    if (!withoutRowid(t))
      return db.prepare<{ app: string; n: number }>(
        `DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE app_key = @app LIMIT @n)`,
      )
    const key = keyOfTable(t).map(quote).join(', ')
    if (key === '')
      return db.prepare<{ app: string; n: number }>(`DELETE FROM ${name} WHERE app_key = @app AND @n > 0`)
    return db.prepare<{ app: string; n: number }>(
      `DELETE FROM ${name} WHERE app_key = @app AND (${key}) IN (SELECT ${key} FROM ${name} WHERE app_key = @app LIMIT @n)`,
    )
  })
  return {
    /** Deletes at most `limit` of the app's rows (cascades aside); false once none is left. */
    step(appKey: string, limit: number, from = 0): { table: number; more: boolean } {
      // Its seqs go on from where they were (item-seqs.ts): read before the first row goes.
      seqs.carryOver(appKey)
      for (let i = from; i < deletes.length; i++) {
        const n = deletes[i]!.run({ app: appKey, n: limit }).changes
        if (n > 0) return { table: i, more: true }
      }
      return { table: deletes.length, more: false }
    },
    /** One table's rows of the app, at most `limit` (before writing that table anew). */
    table(appKey: string, table: string, limit: number): number {
      seqs.carryOver(appKey)
      const i = owned.indexOf(table)
      return i < 0 ? 0 : deletes[i]!.run({ app: appKey, n: limit }).changes
    },
  }
}
