import type { Db } from '../engine/db.js'
import type { Engine } from '../engine/index.js'

// Everything an app owns is a row with its `app_key`, or a row that cascades from one (migration
// 002: schedule_recipients, callback_attempts). So removing an app needs no list of tables to keep
// up to date: they are read from the schema when the store opens, and a table a later migration
// adds is covered by carrying `app_key` (test/store/app-rows.test.ts checks every table does, or
// cascades from one that does, or is global).

/** The tables with an `app_key` column, each before the tables its foreign keys point to. */
export function appTables(db: Db): string[] {
  const tables = db
    .prepare<[], { name: string }>(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table'
         AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'app_key') ORDER BY m.name`,
    )
    .all()
    .map(r => r.name)
  const parents = new Map(
    tables.map(t => [
      t,
      new Set(
        db
          .prepare<[string], { parent: string }>('SELECT "table" AS parent FROM pragma_foreign_key_list(?)')
          .all(t)
          .map(r => r.parent)
          .filter(p => p !== t && tables.includes(p)),
      ),
    ]),
  )
  // A table goes once no table still to delete points to it: children first, `apps` last.
  const order: string[] = []
  const left = new Set(tables)
  while (left.size > 0) {
    const next = [...left].find(t => ![...left].some(child => parents.get(child)!.has(t)))
    if (!next) throw new Error(`foreign keys between ${[...left].join(', ')} form a cycle`)
    order.push(next)
    left.delete(next)
  }
  return order
}

/**
 * Removes every row of one app, in one statement per table (inside the caller's write job, so in
 * one transaction), its seq counter carried over first (item-seqs.ts), then forgets whatever the
 * engine holds of it (cached rows, due bounds).
 */
export function createAppRows(engine: Engine) {
  // The tables are read from the schema (≈ 40 statements) on the first count or removal, not at
  // every start (docs/performance.md, "The start and idle memory").
  let made: ReturnType<typeof statements> | undefined
  const ready = () => {
    if (made === undefined) made = statements(engine)
    return made
  }
  return {
    /** How many rows the app has in each of its tables (its share of the disk: GET /_sandbox/app). */
    count(appKey: string): Record<string, number> {
      return Object.fromEntries(
        ready().counts.map(([table, statement]) => [table, statement.get({ appKey })?.n ?? 0]),
      )
    },
    /** The tables an app's rows are removed from, in that order. */
    get tables(): string[] {
      return ready().tables
    },
    /** Deletes the app's rows everywhere, its `apps` row last; returns how many (cascades not counted). */
    remove(appKey: string): number {
      engine.seqs.carryOver(appKey)
      let rows = 0
      for (const statement of ready().deletes) rows += statement.run({ appKey }).changes
      engine.forgetApp(appKey)
      return rows
    },
  }
}

function statements(engine: Engine) {
  const tables = appTables(engine.db)
  const deletes = tables.map(table =>
    engine.db.prepare<{ appKey: string }>(`DELETE FROM "${table}" WHERE app_key = @appKey`),
  )
  const counts = tables.map(
    table =>
      [
        table,
        engine.db.prepare<{ appKey: string }, { n: number }>(
          `SELECT count(*) AS n FROM "${table}" WHERE app_key = @appKey`,
        ),
      ] as const,
  )
  return { tables, deletes, counts }
}
