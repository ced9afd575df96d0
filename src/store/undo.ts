/**
 * What a transaction did to the process's memory, to take back when SQLite takes back its rows.
 * Values the store holds as the truth for reads (the balances: balances.ts) change inside write
 * jobs, with the statement that writes them; a job that throws rolls back its savepoint, a batch
 * whose COMMIT fails rolls back every job, and memory must follow. Every transaction the store
 * runs (writer.ts, store.transaction) is a `scope`: inside it, `record` keeps how to undo a change;
 * a scope that throws runs its undos, newest first; one that succeeds hands them to the scope
 * around it, up to the outermost, whose success makes them final.
 */
export interface UndoJournal {
  /** Whether a scope is open: a change made now can be taken back. */
  readonly active: boolean
  record(undo: () => void): void
  scope<T>(fn: () => T): T
}

export function createUndoJournal(): UndoJournal {
  const scopes: Array<Array<() => void>> = []
  return {
    get active() {
      return scopes.length > 0
    },
    record(undo) {
      scopes.at(-1)?.push(undo)
    },
    scope(fn) {
      const mine: Array<() => void> = []
      scopes.push(mine)
      let result: ReturnType<typeof fn>
      try {
        result = fn()
      } catch (err) {
        scopes.pop()
        for (let i = mine.length - 1; i >= 0; i--) mine[i]!()
        throw err
      }
      scopes.pop()
      const outer = scopes.at(-1)
      if (outer) for (const undo of mine) outer.push(undo)
      return result
    },
  }
}
