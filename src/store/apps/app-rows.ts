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
  // A table's count statements are made on its first count (a few per table).
  const counters = new Map<string, TableCounter>()
  const counter = (table: string) => {
    let c = counters.get(table)
    if (c === undefined) {
      c = countTable(engine.db, table)
      counters.set(table, c)
    }
    return c
  }
  /**
   * How many rows the app has in each of its tables (its share of the disk: GET
   * /_sandbox/app/storage), counted a step at a time: each `next()` walks about
   * `COUNT_PAGE` index entries, whatever the app holds, and the last answers the counts. The
   * caller yields to other requests between steps (across/app/view.ts); see `countTable`.
   */
  function* counting(appKey: string, page = COUNT_PAGE): Generator<void, Record<string, number>> {
    const { tables } = ready()
    const rows: Record<string, number> = {}
    let walked = 0
    for (const table of tables) {
      const walk = counter(table).walk(appKey, page)
      for (;;) {
        const step = walk.next()
        if (step.done) {
          rows[table] = step.value
          break
        }
        walked += step.value
        if (walked >= page) {
          yield
          walked = 0
        }
      }
    }
    return rows
  }
  return {
    counting,
    /** `counting` all at once: small apps and tests (a big app's count holds the others meanwhile). */
    count(appKey: string): Record<string, number> {
      const steps = counting(appKey)
      for (;;) {
        const step = steps.next()
        if (step.done) return step.value
      }
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
  return { tables, deletes }
}

/**
 * Index entries one step of a count walks (at most twice this: a step ends once it has walked as
 * many): 0.3 ms on 2 shared cores, 291 steps for an app of 200 000 devices with their tags and
 * sessions and 200 000 deliveries (docs/reliability.md, "A tenant's share").
 */
export const COUNT_PAGE = 4096

type Value = string | number | bigint | Buffer | null

/** One table's count, a bounded walk (`walk` yields what each piece walked, returns the count). */
export interface TableCounter {
  /** How the rows are walked: `keys` of an index led by app_key (its name), or `rowids` of every app. */
  readonly by: { keys: string } | { rowids: true } | { once: true }
  /** The statements' SQL, for the plans' test (test/store/app-rows.test.ts). */
  readonly queries: readonly string[]
  walk(appKey: string, page: number): Generator<number, number>
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

interface IndexColumn {
  name: string
  nullable: boolean
}

/**
 * The index an app's rows of `table` are counted through: one whose first column is app_key,
 * so the app's entries are one range of it, in the order of its other columns and then the rowid
 * (an entry of an index holds its table's rowid after its columns; a WITHOUT ROWID table's
 * primary key is its order). Not partial, plain columns in ascending binary order; among those,
 * the fewest nullable columns, then the fewest columns. `tail`: the columns after app_key that
 * make an entry unique (the rowid last, for a rowid table).
 */
function countingIndex(db: Db, table: string): { name: string | null; tail: IndexColumn[] } | undefined {
  const info = db
    .prepare<[string], { name: string; notnull: number; pk: number }>(
      'SELECT name, "notnull", pk FROM pragma_table_info(?)',
    )
    .all(table)
  const nullable = (column: string) => {
    const c = info.find(i => i.name === column)
    return c === undefined || (c.notnull === 0 && c.pk === 0)
  }
  const sql =
    db
      .prepare<[string], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
      .pluck()
      .get(table) ?? ''
  const withoutRowid = /WITHOUT\s+ROWID/i.test(sql)
  const indexes = db
    .prepare<[string], { name: string; origin: string; partial: number; unique: number }>(
      'SELECT name, origin, partial, "unique" FROM pragma_index_list(?)',
    )
    .all(table)
  const candidates: Array<{ name: string | null; tail: IndexColumn[]; unique: boolean }> = []
  for (const index of indexes) {
    if (index.partial) continue
    if (withoutRowid && index.origin !== 'pk') continue
    const columns = db
      .prepare<[string], { name: string | null; cid: number; key: number; desc: number; coll: string }>(
        'SELECT name, cid, key, desc, coll FROM pragma_index_xinfo(?) ORDER BY seqno',
      )
      .all(index.name)
    const keys = columns.filter(c => c.key === 1)
    if (keys[0]?.name !== 'app_key') continue
    if (keys.some(c => c.name === null || c.cid < 0 || c.desc !== 0 || c.coll.toUpperCase() !== 'BINARY'))
      continue
    const tail = keys.slice(1).map(c => ({ name: c.name!, nullable: !withoutRowid && nullable(c.name!) }))
    if (!withoutRowid) tail.push({ name: 'rowid', nullable: false })
    // A WITHOUT ROWID table's primary key is its own order: no INDEXED BY (it has no index name to give).
    candidates.push({ name: withoutRowid ? null : index.name, tail, unique: index.unique === 1 })
  }
  const nulls = (c: { tail: IndexColumn[] }) => c.tail.filter(t => t.nullable).length
  candidates.sort(
    (a, b) =>
      nulls(a) - nulls(b) ||
      a.tail.length - b.tail.length ||
      Number(b.unique) - Number(a.unique) ||
      String(a.name).localeCompare(String(b.name)),
  )
  return candidates[0]
}

/**
 * Counts one app's rows of `table` in pieces of at most `page` index entries, each an exact range
 * of the index `countingIndex` chose (keyset paging, no OFFSET from the start): the app's range
 * from its first entry, then, after the last entry counted (its tail k1…km), the entries that
 * share k1…k(j-1) and come after kj, for j = m down to 1. A piece asks for the entry `page` places
 * on (LIMIT 1 OFFSET page-1: SQLite steps the index, nothing is returned on the way) and goes on
 * after it, or counts what is left of that range (fewer than `page`). NULLs come first in an
 * index: after a NULL, the range is `IS NOT NULL`, and a NULL is matched with IS.
 *
 * Between two pieces other requests run, so what a count sees is not one instant: a row written
 * or removed meanwhile is counted if it lies after the cursor. A row there all along is counted
 * exactly once (the cursor never moves back).
 *
 * A table with no such index (none today but `review_events`, a handful of rows per template or
 * signature) is walked by its rowids, every app's, `page` at a time. A WITHOUT ROWID table whose
 * key does not begin with app_key would be counted at once (`once`: the plans' test refuses it).
 */
export function countTable(db: Db, table: string): TableCounter {
  const t = quote(table)
  const index = countingIndex(db, table)
  if (index === undefined) {
    const withoutRowid = /WITHOUT\s+ROWID/i.test(
      db.prepare<[string], string>('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table) ?? '',
    )
    if (withoutRowid) {
      const sql = `SELECT count(*) FROM ${t} WHERE app_key = @app`
      const all = db.prepare<{ app: string }, number>(sql).pluck()
      return {
        by: { once: true },
        queries: [sql],
        *walk(appKey) {
          const n = all.get({ app: appKey }) ?? 0
          yield n
          return n
        },
      }
    }
    const sql = `SELECT count(*) AS walked, max(r) AS last, coalesce(sum(k = @app), 0) AS n
      FROM (SELECT rowid AS r, app_key AS k FROM ${t} WHERE rowid > @after ORDER BY rowid LIMIT @page)`
    const window = db.prepare<
      { app: string; after: number; page: number },
      { walked: number; last: number | null; n: number }
    >(sql)
    return {
      by: { rowids: true },
      queries: [sql],
      *walk(appKey, page) {
        let n = 0
        let after = Number.MIN_SAFE_INTEGER
        for (;;) {
          const w = window.get({ app: appKey, after, page })!
          n += w.n
          yield w.walked
          if (w.walked < page || w.last === null) return n
          after = w.last
        }
      },
    }
  }

  const { tail } = index
  const from = `${t}${index.name === null ? '' : ` INDEXED BY ${quote(index.name)}`}`
  const col = (c: IndexColumn) => (c.name === 'rowid' ? 'rowid' : quote(c.name))
  const m = tail.length
  if (m === 0) {
    // The key is app_key alone: one row at most.
    const sql = `SELECT count(*) FROM ${from} WHERE app_key = @app`
    const one = db.prepare<{ app: string }, number>(sql).pluck()
    return {
      by: { keys: index.name ?? 'primary key' },
      queries: [sql],
      *walk(appKey) {
        const n = one.get({ app: appKey }) ?? 0
        yield n
        return n
      },
    }
  }
  /** A range of the app's entries: level 0 all of them; level j ≥ 1 as the header of countTable says. */
  const range = (level: number, afterNull: boolean) => {
    const where = ['app_key = @app']
    for (let i = 0; i < level - 1; i++)
      where.push(`${col(tail[i]!)} ${tail[i]!.nullable ? 'IS' : '='} @k${i}`)
    if (level > 0)
      where.push(
        afterNull ? `${col(tail[level - 1]!)} IS NOT NULL` : `${col(tail[level - 1]!)} > @k${level - 1}`,
      )
    const rest = tail
      .slice(Math.max(0, level - 1))
      .map(col)
      .join(', ')
    const edge = `SELECT ${rest} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${rest} LIMIT 1 OFFSET @skip`
    const left = `SELECT count(*) FROM ${from} WHERE ${where.join(' AND ')}`
    // The cursor values this range binds: k0…k(level-2), and k(level-1) unless after a NULL.
    const binds = level === 0 ? 0 : afterNull ? level - 1 : level
    return {
      sql: [edge, left],
      edge: db.prepare<Record<string, Value>, Value[]>(edge).raw(),
      left: db.prepare<Record<string, Value>, number>(left).pluck(),
      binds,
    }
  }
  const ranges = [range(0, false)]
  const afterNulls: Array<ReturnType<typeof range> | undefined> = [undefined]
  for (let level = 1; level <= m; level++) {
    ranges.push(range(level, false))
    afterNulls.push(tail[level - 1]!.nullable ? range(level, true) : undefined)
  }
  return {
    by: { keys: index.name ?? 'primary key' },
    queries: [...ranges, ...afterNulls].flatMap(r => r?.sql ?? []),
    *walk(appKey, page) {
      let n = 0
      // The tail of the last entry counted; level: which range comes next (0: none counted yet).
      let cursor: Value[] = []
      let level = 0
      for (;;) {
        const afterNull = level > 0 && cursor[level - 1] === null
        const r = afterNull ? afterNulls[level]! : ranges[level]!
        const params: Record<string, Value> = { app: appKey, skip: page - 1 }
        for (let i = 0; i < r.binds; i++) params[`k${i}`] = cursor[i] ?? null
        const edge = r.edge.get(params)
        if (edge !== undefined) {
          n += page
          cursor = level === 0 ? edge : [...cursor.slice(0, level - 1), ...edge]
          level = m
          yield page
          continue
        }
        const left = r.left.get(params) ?? 0
        n += left
        yield left
        if (level <= 1) return n
        level -= 1
      }
    },
  }
}
