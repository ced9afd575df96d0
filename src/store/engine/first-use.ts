import type { Statement } from 'better-sqlite3'
import type { Db } from './db.js'

/**
 * Every statement of the store is compiled by SQLite when it first runs, not when its module is
 * made. The table modules prepare theirs once, when the store is created (engine/index.ts: "How to
 * add a table"): ≈ 665 statements, 30–60 ms of every start and a compiled program each held in
 * memory, of which a start's first request runs a handful (docs/performance.md, "Fast start").
 * `db.prepare` now hands back a statement that prepares itself on its first call, with the modes
 * set before it (`pluck()`…) applied then; what it answers, and the errors it throws, are the same.
 *
 * The one difference is when a statement's own error shows: SQL that SQLite cannot compile fails
 * at the statement's first call instead of at the start (the tests call them all).
 */
export function prepareOnFirstUse(db: Db): void {
  if (deferring.has(db)) return
  deferring.add(db)
  const prepare = db.prepare.bind(db)
  db.prepare = ((source: string) => new DeferredStatement(() => prepare(source), source)) as Db['prepare']
}

const deferring = new WeakSet<Db>()

type Mode = (statement: Statement) => void

/** better-sqlite3's Statement, prepared on its first call; each method is its own. */
class DeferredStatement {
  #statement: Statement | undefined
  #modes: Mode[] = []
  readonly #prepare: () => Statement
  readonly source: string

  constructor(prepare: () => Statement, source: string) {
    this.#prepare = prepare
    this.source = source
  }

  #prepared(): Statement {
    if (this.#statement) return this.#statement
    const statement = this.#prepare()
    for (const mode of this.#modes) mode(statement)
    this.#modes = []
    this.#statement = statement
    // From now on a call goes straight to SQLite's statement: no rest parameters to spread, no
    // check, on the request path (own properties shadow the methods below).
    Object.assign(this, {
      run: statement.run.bind(statement),
      get: statement.get.bind(statement),
      all: statement.all.bind(statement),
      iterate: statement.iterate.bind(statement),
    })
    return statement
  }

  /** A mode (pluck, raw, expand, safeIntegers, bind): now if prepared, else when it is. */
  #mode(mode: Mode): this {
    if (this.#statement) mode(this.#statement)
    else this.#modes.push(mode)
    return this
  }

  run(...params: unknown[]) {
    return (this.#statement ?? this.#prepared()).run(...params)
  }
  get(...params: unknown[]) {
    return (this.#statement ?? this.#prepared()).get(...params)
  }
  all(...params: unknown[]) {
    return (this.#statement ?? this.#prepared()).all(...params)
  }
  iterate(...params: unknown[]) {
    return (this.#statement ?? this.#prepared()).iterate(...params)
  }
  columns() {
    return this.#prepared().columns()
  }
  pluck(...toggle: [boolean?]) {
    return this.#mode(s => s.pluck(...toggle))
  }
  expand(...toggle: [boolean?]) {
    return this.#mode(s => s.expand(...toggle))
  }
  raw(...toggle: [boolean?]) {
    return this.#mode(s => s.raw(...toggle))
  }
  safeIntegers(...toggle: [boolean?]) {
    return this.#mode(s => s.safeIntegers(...toggle))
  }
  bind(...params: unknown[]) {
    return this.#mode(s => s.bind(...params))
  }
  get reader(): boolean {
    return this.#prepared().reader
  }
  get readonly(): boolean {
    return this.#prepared().readonly
  }
  get busy(): boolean {
    return this.#statement?.busy ?? false
  }
  get database(): Db {
    return this.#prepared().database
  }
}
