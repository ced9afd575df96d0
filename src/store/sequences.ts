import type { Db } from './db.js'

export type SequenceName = 'msg_id' | 'temp_id' | 'sign_id' | 'push_msg_id'

/** Ids come from SQLite inside the writing transaction, so they survive restarts and never repeat. */
export function createSequences(db: Db) {
  const take = db.prepare<{ name: string; n: number }, { value: number }>(
    'UPDATE sequences SET value = value + @n WHERE name = @name RETURNING value',
  )
  const skip = db.prepare('UPDATE sequences SET value = max(value, @value) WHERE name = @name')
  return {
    /** Never hands out `value` or anything below it (ids given elsewhere, e.g. by the seed file). */
    skipPast(name: SequenceName, value: number): void {
      skip.run({ name, value })
    },
    /** Reserves `n` consecutive ids and returns the first. */
    next(name: SequenceName, n = 1): number {
      const row = take.get({ name, n })
      if (!row) throw new Error(`unknown sequence ${name}`)
      return row.value - n + 1
    },
  }
}
