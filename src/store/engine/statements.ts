import type { RunResult } from 'better-sqlite3'
import type { Db } from './db.js'
import type { DueIndex, DueQuery } from './due.js'
import type { Seqs, SeqTopic } from './item-seqs.js'

/**
 * What a statement that writes changes besides its rows, declared with its SQL: the caches holding
 * rows it changes, the due work it creates or brings forward, and the seq its item is listed by. `P`
 * is what it binds: an object of named parameters, or a tuple of positional ones.
 */
export interface Touches<P> {
  /**
   * The key its rows are known by in the caches it names and the due index: default, the `appKey`
   * named parameter. (A developer's caches are keyed by devKey: `key: d => d.devKey`.)
   */
  key?: (params: P) => string
  /** Caches of the rows (a memo, a row cache): the key is forgotten in each, whatever it changed. */
  forgets?: ReadonlyArray<{ forget(key: string): void }>
  /**
   * The due work it creates or brings forward: its query, and when it falls due (null: none). Noted
   * only when the statement changed a row (or returned one): a write that found nothing is no work.
   */
  due?: { query: DueQuery; at: (params: P) => number | null } | undefined
  /**
   * It moves due times of many apps at once (an app's clock, the interrupted callbacks redone): every
   * bound the due index holds is asked again of SQLite (due.ts: `remap`).
   */
  remaps?: true
  /**
   * Its row is a listed item with a seq (item-seqs.ts): the engine takes the app's next seq for the
   * topic, in the write, and binds it as `@seq` (beside positional parameters, or added to named
   * ones); `run` answers it as `seq`. A `seq` parameter already a number is kept, and nobody is
   * woken for it: the item shares the seq another row of the same write took (a reply's event).
   * A function may answer null: this call's row has no seq (a delivery still pending), `@seq` is
   * bound NULL and `run` answers 0.
   */
  seq?: SeqTopic | ((params: P) => SeqTopic | null)
  /**
   * It writes a batch of listed items in one statement (an INSERT … SELECT): how many seqs it takes,
   * consecutive, the first bound as `@seq` and each row numbering itself from it (`@seq - 1 +` its
   * running count). Default one; 0 takes none (`@seq` NULL, `run` answers 0).
   */
  seqCount?: (params: P) => number
  /**
   * Its rows are many listed items written by one statement (the reports of a tick arriving):
   * `keys(params)` names the app of each row, in order; the engine takes each the app's next seq
   * for `topic`, in that order (consecutive per app), and runs the statement with what
   * `bind(params, seqs)` makes of them (the seqs in the same order); `run` answers them as `seqs`.
   */
  seqEach?: {
    topic: SeqTopic
    keys: (params: P) => readonly string[]
    bind: (params: P, seqs: readonly number[]) => unknown
  }
}

/** What a statement that writes answers: SQLite's, and the seq it took (0: none), or those of `seqEach`. */
export interface Written extends RunResult {
  seq: number
  seqs: readonly number[]
}

const NO_SEQS: readonly number[] = Object.freeze([])

export interface WriteStatement<P, R = unknown> {
  run(params: P): Written
  /** The first row a RETURNING clause answers. */
  get(params: P): R | undefined
  /** Every row a RETURNING clause answers. */
  all(params: P): R[]
}

/**
 * `writes(sql, touches)`: a statement that writes, prepared once, whose calls also apply what it
 * declares, right after SQLite ran it (a statement that fails changes nothing, and applies
 * nothing, except a seq taken before it: a gap, never a repeat): the key forgotten in the caches it
 * names, its due time noted in the due index (due.ts), its seq taken and bound. A table method is
 * then its SQL and one call; nobody has to remember the rest, and the declaration beside the SQL
 * says what the call touches.
 */
export function createStatements(db: Db, due: Pick<DueIndex, 'note' | 'remap'>, seqs: Pick<Seqs, 'next'>) {
  const appKeyParam = <P>(params: P) => (params as { appKey: string }).appKey
  return {
    writes<P extends object, R = unknown>(sql: string, touches: Touches<P>): WriteStatement<P, R> {
      const statement = db.prepare(sql)
      const keyOf = touches.key ?? appKeyParam
      const forgets = touches.forgets ?? []
      const dueWork = touches.due
      const remaps = touches.remaps === true
      const topic = touches.seq
      const countOf = touches.seqCount
      const each = touches.seqEach
      /** The seq it takes for `params` (0: none declared; null: none for this call; a given one is kept). */
      function seqFor(params: P): number | null {
        if (topic === undefined) return 0
        const given = (params as { seq?: unknown }).seq
        if (!Array.isArray(params) && typeof given === 'number') return given
        const named = typeof topic === 'string' ? topic : topic(params)
        if (named === null) return null
        if (countOf === undefined) return seqs.next(keyOf(params), named)
        const n = countOf(params)
        return n > 0 ? seqs.next(keyOf(params), named, n) : null
      }
      /**
       * Runs `method` bound with the seq (no array of arguments: this is the send's path). An array
       * binds positional parameters, an object named ones (better-sqlite3): `@seq` is a named one
       * beside the positional, or one more of the named.
       */
      function call<T>(method: 'run' | 'get' | 'all', params: P, seq: number | null): T {
        if (topic === undefined) return statement[method](params) as T
        if (Array.isArray(params)) return statement[method](params, { seq }) as T
        return statement[method]({ ...params, seq }) as T
      }
      function apply(params: P, changed: boolean): void {
        const key = forgets.length > 0 || (dueWork && changed) ? keyOf(params) : ''
        for (const cache of forgets) cache.forget(key)
        if (dueWork && changed) {
          const at = dueWork.at(params)
          if (at !== null) due.note(dueWork.query, key, at)
        }
        if (remaps) due.remap()
      }
      return {
        run(params) {
          if (each) {
            const taken = each.keys(params).map(key => seqs.next(key, each.topic))
            const result = statement.run(each.bind(params, taken)) as Written
            result.seq = 0
            result.seqs = taken
            apply(params, result.changes > 0)
            return result
          }
          const seq = seqFor(params)
          const result = call<Written>('run', params, seq)
          result.seq = seq ?? 0
          result.seqs = NO_SEQS
          apply(params, result.changes > 0)
          return result
        },
        get(params) {
          const row = call<R | undefined>('get', params, seqFor(params))
          apply(params, row !== undefined)
          return row
        },
        all(params) {
          const rows = call<R[]>('all', params, seqFor(params))
          apply(params, rows.length > 0)
          return rows
        },
      }
    },
  }
}
