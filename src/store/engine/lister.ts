import type { Statement } from 'better-sqlite3'
import type { Db } from './db.js'

/**
 * What every control-plane list takes besides its own filters (src/control/list-query.ts reads it
 * from the query string): a seq to read past, a window of the app's clock, and how many.
 */
export interface ListWindow {
  /** Only items with a larger seq: the `limit` that follow it, still answered newest first. */
  after?: number | undefined
  /** The item's time (app clock) is at least this… */
  since?: number | undefined
  /** …and before this. */
  until?: number | undefined
  limit: number
}

/** The values of a list's own filters (undefined: not asked). */
export type FilterValues<F extends string> = { [K in F]?: string | number | undefined }

/** How one list reads: its rows, which columns are its seq and its time, each filter's condition. */
export interface ListSpec<F extends string> {
  /** What is selected, from which table (and alias), and what it joins. */
  columns: string
  from: string
  join?: string
  appKey: string
  seq: string
  time: string
  /** Always true of a listed row (a report that arrived: `seq IS NOT NULL`). */
  where?: string
  /** Each filter as a condition on its `@name` parameter. */
  filters: Record<F, string>
  /**
   * Filters with an index of their own (a mobile's, a msg_id's), by index name: given one, the
   * rows are found through it and sorted, instead of walking the app's whole seq index (which
   * SQLite, without statistics, prefers: it needs no sort).
   */
  indexed?: Partial<Record<F, string>>
}

/**
 * A list as SQL: only the conditions of the filters given, so that SQLite picks the index that
 * fits (the mobile's for `mobile=`, the seq's otherwise), each shape prepared once. Newest first;
 * with `after`, the `limit` items right after it (so a client following `after=` misses nothing
 * when more than `limit` arrived), still answered newest first. `newest` lists always take the
 * newest (codes/latest: the latest code, even after `after`).
 */
export function createLister<F extends string, Row>(db: Db, spec: ListSpec<F>, { newest = false } = {}) {
  const prepared = new Map<string, Statement<[Record<string, unknown>], Row>>()
  return (appKey: string, filter: FilterValues<F> & ListWindow): Row[] => {
    const conditions = [`${spec.appKey} = @appKey`]
    const params: Record<string, unknown> = { appKey, limit: filter.limit }
    if (spec.where) conditions.push(spec.where)
    for (const name of Object.keys(spec.filters) as F[]) {
      const value = filter[name]
      if (value === undefined) continue
      conditions.push(spec.filters[name])
      params[name] = value
    }
    const window: Array<[keyof ListWindow, string]> = [
      ['after', `${spec.seq} > @after`],
      ['since', `${spec.time} >= @since`],
      ['until', `${spec.time} < @until`],
    ]
    for (const [name, condition] of window) {
      if (filter[name] === undefined) continue
      conditions.push(condition)
      params[name] = filter[name]
    }
    const ascending = filter.after !== undefined && !newest
    const given = (Object.keys(spec.indexed ?? {}) as F[]).find(name => filter[name] !== undefined)
    const from = given ? `${spec.from} INDEXED BY ${spec.indexed?.[given]}` : spec.from
    const sql = `SELECT ${spec.columns} FROM ${from} ${spec.join ?? ''} WHERE ${conditions.join(' AND ')}
      ORDER BY ${spec.seq} ${ascending ? 'ASC' : 'DESC'} LIMIT @limit`
    let statement = prepared.get(sql)
    if (!statement) {
      statement = db.prepare<[Record<string, unknown>], Row>(sql)
      prepared.set(sql, statement)
    }
    const rows = statement.all(params)
    return ascending ? rows.reverse() : rows
  }
}
