import type { Statement } from 'better-sqlite3'
import type { Db } from './db.js'

// What a writing statement changes besides its rows is declared where the statement is prepared,
// not where it is called: the cached rows it makes stale (row-cache.ts) and the due work it
// creates or brings forward (due-index.ts). A method written later that runs the statement cannot
// forget either, because the statement itself does it, every time it runs.

/** The parameters of a statement as its methods take them. */
export type Params<P> = P extends unknown[] ? P : [P]

/** Runs before the statement, with the statement's parameters. */
export type Effect<P> = (...params: Params<P>) => void

type Prepared<P, R> = P extends unknown[] ? Statement<P, R> : Statement<[P], R>

/**
 * A statement that writes, with what it does to the process besides the database: each effect
 * runs before every `run`, `get` and `all`. Before, not after: an effect forgets or lowers a bound,
 * so running it for a statement that then fails (and rolls back) is harmless, while a statement
 * that succeeded without its effect would leave the process believing something stale.
 */
export function prepareWrite<P extends unknown[] | object = unknown[], R = unknown>(
  db: Db,
  source: string,
  ...effects: Effect<P>[]
): Prepared<P, R> {
  const statement = db.prepare<P, R>(source) as Prepared<P, R>
  if (statement.readonly) throw new Error(`prepareWrite: this statement writes nothing: ${source}`)
  const methods = statement as unknown as Record<'run' | 'get' | 'all', (...args: unknown[]) => unknown>
  for (const method of ['run', 'get', 'all'] as const) {
    const call = methods[method]
    methods[method] = function (this: unknown, ...args: unknown[]) {
      for (const effect of effects) (effect as (...a: unknown[]) => void)(...args)
      return call.apply(this, args)
    }
  }
  return statement
}

/** A statement that must not write (a store module whose rows are cached reads through it). */
export function prepareRead<P extends unknown[] | object = unknown[], R = unknown>(
  db: Db,
  source: string,
): Prepared<P, R> {
  const statement = db.prepare<P, R>(source) as Prepared<P, R>
  if (!statement.readonly)
    throw new Error(`prepareRead: this statement writes; prepare it with the rows it changes: ${source}`)
  return statement
}
