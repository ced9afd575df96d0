import type { RunResult } from 'better-sqlite3'
import type { Db } from './db.js'
import type { DueIndex, DueQuery } from './due.js'

/**
 * What a statement that writes changes besides its rows, declared with its SQL: the per-app caches
 * holding rows it changes, and the due work it creates or brings forward. `P` is what it binds: an
 * object of named parameters, or a tuple of positional ones.
 */
export interface Touches<P> {
  /** The app whose rows it writes; default: the `appKey` named parameter. */
  appKey?: (params: P) => string
  /** Caches of the app's rows (a memo, a per-app row cache): the app is forgotten in each. */
  forgets?: ReadonlyArray<{ forget(appKey: string): void }>
  /** The due work it creates or brings forward: its query, and when it falls due (null: none). */
  due?: { query: DueQuery; at: (params: P) => number | null }
}

export interface WriteStatement<P> {
  run(params: P): RunResult
}

/**
 * `writes(sql, touches)`: a statement that writes, prepared once, whose `run` also applies what it
 * declares, right after SQLite ran it (a statement that fails changes nothing, and applies
 * nothing): the app forgotten in the caches it names, its due time noted in the due index
 * (due.ts). A table method is then its SQL and one call; nobody has to remember the rest, and the
 * declaration beside the SQL says what the call touches.
 */
export function createStatements(db: Db, due: Pick<DueIndex, 'note'>) {
  const appKeyParam = <P>(params: P) => (params as { appKey: string }).appKey
  return {
    writes<P extends object>(sql: string, touches: Touches<P>): WriteStatement<P> {
      const statement = db.prepare(sql)
      const appKeyOf = touches.appKey ?? appKeyParam
      const forgets = touches.forgets ?? []
      const dueWork = touches.due
      return {
        run(params) {
          // An array binds positional parameters, an object named ones (better-sqlite3).
          const result = statement.run(params)
          const appKey = appKeyOf(params)
          for (const cache of forgets) cache.forget(appKey)
          if (dueWork) {
            const at = dueWork.at(params)
            if (at !== null) due.note(dueWork.query, appKey, at)
          }
          return result
        },
      }
    },
  }
}
