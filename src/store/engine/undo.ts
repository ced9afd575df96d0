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
  /** `fn(arg)` as one scope (an argument rather than a closure: a scope per job and recipient). */
  scope<A, T>(fn: (arg: A) => T, arg: A): T
}

export function createUndoJournal(): UndoJournal {
  // One stack for every open scope: a scope owns the undos above the length it started at, and
  // hands them to the scope around it by leaving them there. Nothing is allocated per scope.
  const undos: Array<() => void> = []
  let depth = 0
  return {
    get active() {
      return depth > 0
    },
    record(undo) {
      if (depth > 0) undos.push(undo)
    },
    scope(fn, arg) {
      const mark = undos.length
      depth++
      let result: ReturnType<typeof fn>
      try {
        result = fn(arg)
      } catch (err) {
        depth--
        while (undos.length > mark) undos.pop()!()
        throw err
      }
      depth--
      // The outermost scope succeeded: its changes are final.
      if (depth === 0) undos.length = 0
      return result
    },
  }
}
