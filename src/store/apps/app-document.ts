import type { Statement } from 'better-sqlite3'
import type { Db } from '../engine/db.js'
import type { SequenceName } from '../engine/id-blocks.js'
import type { Engine } from '../engine/index.js'
import { appTables } from './app-rows.js'

// Every row of one app, as its tables hold them: what GET /_sandbox/app/export writes into the
// app's document, and what POST /_sandbox/app/import writes back (sandbox/app/transfer.ts says
// what the document is). Like the reset (app-rows.ts), the tables are read from the schema: the
// tables with an `app_key`, and the tables that cascade from one of them (a schedule's recipients,
// a callback's attempts, a push schedule's firings), so a table a later migration adds travels in
// the document without a line here.

/** A BLOB's bytes (an image, a certificate) travel in JSON as base64. */
export type Bytes = { base64: string }
export type Value = string | number | null | Bytes
export type Row = Record<string, Value>
export type Tables = Record<string, Row[]>

interface Table {
  name: string
  columns: readonly string[]
  /** Has `app_key` (else a child: rows found through `parent`). */
  owned: boolean
  /** A child's link to the owned table it cascades from: `child.from = parent.to`. */
  parent?: { table: string; from: string; to: string }
  /** Rows in the order they were made: the rowid's, or the primary key's (WITHOUT ROWID). */
  order: string
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

/** Where the ids of the global sequences (id-blocks.ts) appear: an import skips past them. */
const SEQUENCE_COLUMNS: Record<SequenceName, ReadonlyArray<readonly [table: string, column: string]>> = {
  msg_id: [
    ['messages', 'msg_id'],
    ['reports', 'msg_id'],
    ['schedule_recipients', 'msg_id'],
    ['push_deliveries', 'sms_msg_id'],
  ],
  temp_id: [['templates', 'temp_id']],
  sign_id: [['signs', 'sign_id']],
  // '181' and the counter in 14 digits (push/delivery/dispatch.ts).
  push_msg_id: [
    ['pushes', 'msg_id'],
    ['push_schedule_firings', 'msg_id'],
  ],
}

/** The app's tables and their children, parents first (the order rows are written back in). */
function documentTables(db: Db): Table[] {
  const owned = appTables(db).reverse()
  const info = (t: string) =>
    db.prepare<[string], { name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?)').all(t)
  const withoutRowid = (t: string) =>
    /WITHOUT\s+ROWID/i.test(
      db
        .prepare<[string], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
        .pluck()
        .get(t) ?? '',
    )
  const orderOf = (t: string) => {
    if (!withoutRowid(t)) return 'rowid'
    return info(t)
      .filter(c => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map(c => `"${c.name}"`)
      .join(', ')
  }
  const tables: Table[] = owned.map(name => ({
    name,
    columns: info(name).map(c => c.name),
    owned: true,
    order: orderOf(name),
  }))
  const children = db
    .prepare<[], { name: string }>(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
         AND NOT EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'app_key') ORDER BY m.name`,
    )
    .all()
    .map(r => r.name)
  for (const name of children) {
    const link = db
      .prepare<[string], { table: string; from: string; to: string; on_delete: string }>(
        'SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list(?)',
      )
      .all(name)
      .find(k => owned.includes(k.table) && k.on_delete === 'CASCADE')
    // Global tables (developers, sequences) belong to no app.
    if (!link) continue
    tables.push({
      name,
      columns: info(name).map(c => c.name),
      owned: false,
      parent: { table: link.table, from: link.from, to: link.to },
      order: orderOf(name),
    })
  }
  return tables
}

/** A column's value as the document writes it: a BLOB (a Buffer) as base64. */
function toJson(v: unknown): Value {
  if (v instanceof Uint8Array) return { base64: Buffer.from(v).toString('base64') }
  return (v ?? null) as Value
}

/** A row of the document as SQLite takes it: base64 back to the BLOB's bytes. */
function fromJson(row: Row): Record<string, string | number | null | Buffer> {
  const out: Record<string, string | number | null | Buffer> = {}
  for (const [c, v] of Object.entries(row))
    out[c] = v !== null && typeof v === 'object' ? Buffer.from(v.base64, 'base64') : v
  return out
}

/** A row a statement refused, and why (SQLite's words: a constraint, a type). */
export class RowRefused extends Error {
  constructor(
    readonly table: string,
    readonly index: number,
    readonly row: Row,
    readonly refusal: Error & { code?: string },
  ) {
    super(refusal.message)
    this.name = 'RowRefused'
  }
}

/** Reads and writes one app's rows in every table, for the app's document. */
export function createAppDocument(engine: Engine) {
  const { db } = engine
  const tables = documentTables(db)
  const byName = new Map(tables.map(t => [t.name, t]))
  const reads = new Map<string, Statement<[string], Row>>()
  for (const t of tables) {
    const x = t.parent
    const sql = x
      ? `SELECT c.* FROM "${t.name}" c JOIN "${x.table}" p ON p."${x.to}" = c."${x.from}"
           WHERE p.app_key = ? ORDER BY ${t.order.replace(/"([^"]+)"/g, 'c."$1"').replace(/^rowid$/, 'c.rowid')}`
      : `SELECT * FROM "${t.name}" WHERE app_key = ? ORDER BY ${t.order}`
    reads.set(t.name, db.prepare<[string], Row>(sql))
  }
  const clear = new Map(
    tables
      .filter(t => t.owned)
      .map(t => [t.name, db.prepare<[string]>(`DELETE FROM "${t.name}" WHERE app_key = ?`)]),
  )
  // One statement per table and set of columns (columns are the table's own: columnsOf checks).
  const inserts = new Map<string, Statement<[Record<string, unknown>]>>()
  const insert = (table: string, row: Record<string, unknown>) => {
    const columns = Object.keys(row)
    const key = `${table}(${columns.join(',')})`
    let statement = inserts.get(key)
    if (!statement) {
      const names = columns.map(c => `"${c}"`).join(', ')
      statement = db.prepare<[Record<string, unknown>]>(
        `INSERT INTO "${table}" (${names}) VALUES (${columns.map(c => `@${c}`).join(', ')})`,
      )
      inserts.set(key, statement)
    }
    statement.run(row)
  }

  return {
    /** The tables a document may hold, and each one's columns (those it leaves out excluded). */
    columnsOf(table: string): readonly string[] | undefined {
      const t = byName.get(table)
      if (!t) return undefined
      const local = LOCAL[table] ?? []
      return t.columns.filter(c => c !== 'app_key' && !local.includes(c))
    },
    /** Every row of the app, table by table (parents first), without `app_key` and local columns. */
    read(appKey: string): Tables {
      const out: Tables = {}
      for (const t of tables) {
        const local = LOCAL[t.name] ?? []
        out[t.name] = reads
          .get(t.name)!
          .all(appKey)
          .map(row => {
            const kept: Row = {}
            for (const c of t.columns) if (c !== 'app_key' && !local.includes(c)) kept[c] = toJson(row[c])
            return kept
          })
      }
      return out
    },
    /**
     * Inside a write job, on an app whose rows were just removed (app-rows.ts): writes `rows`
     * back, parents first, each owned row with `appKey` and the table's `extra` columns. A row
     * a trigger made meanwhile (a device's session) gives way to the document's. A row SQLite
     * refuses throws RowRefused (the job then rolls back). Nothing of the app stays cached or
     * bounded after (engine/index.ts: forgetApp).
     */
    write(appKey: string, rows: Tables, extra: Record<string, Row> = {}): void {
      for (const t of tables) {
        const given = rows[t.name] ?? []
        if (t.owned) clear.get(t.name)!.run(appKey)
        given.forEach((row, i) => {
          const full = t.owned ? { ...row, ...extra[t.name], app_key: appKey } : row
          try {
            insert(t.name, fromJson(full))
          } catch (err) {
            throw new RowRefused(t.name, i, row, err as Error)
          }
        })
      }
      engine.forgetApp(appKey)
    },
    /** The largest id of each global sequence the rows hold (an import skips past them). */
    largestIds(rows: Tables): Partial<Record<SequenceName, number>> {
      const out: Partial<Record<SequenceName, number>> = {}
      const sequences = Object.entries(SEQUENCE_COLUMNS) as Array<
        [SequenceName, (typeof SEQUENCE_COLUMNS)['msg_id']]
      >
      for (const [name, places] of sequences) {
        for (const [table, column] of places)
          for (const row of rows[table] ?? []) {
            const v = row[column]
            const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : ''
            const digits = name === 'push_msg_id' ? text.slice(3) : text
            if (!/^\d{1,15}$/.test(digits)) continue
            const n = Number(digits)
            if (n > (out[name] ?? 0)) out[name] = n
          }
      }
      return out
    },
  }
}

export type AppDocumentStore = ReturnType<typeof createAppDocument>
