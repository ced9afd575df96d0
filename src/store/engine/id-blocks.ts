import type { Db } from './db.js'
import type { UndoJournal } from './undo.js'

export type SequenceName = 'msg_id' | 'temp_id' | 'sign_id' | 'push_msg_id'

/**
 * How many ids of a sequence one write of its row reserves. Every SMS and every push takes an id:
 * those are reserved a thousand at a time, so a send runs no statement for its id (an UPDATE …
 * RETURNING was 4 % of a send's CPU: docs/performance.md). Templates and signatures are rare.
 */
const BLOCK: Record<SequenceName, number> = { msg_id: 1000, push_msg_id: 1000, temp_id: 1, sign_id: 1 }

/** What a sequence holds in memory: the next id to hand out, and the last one the row reserves. */
interface Block {
  next: number
  limit: number
}

/**
 * Ids come from SQLite's `sequences` rows, so they survive restarts and never repeat. The row holds
 * the highest id reserved; a block of ids is reserved by the write job that takes the first of
 * it, and handed out from memory after. A crash (even SIGKILL) loses at most the rest of a block:
 * a gap, never a repeat, because an id handed out is at most the reserved value, and that value
 * is committed with (or before) the job that used the id.
 *
 * A job that rolls back takes its reservation back with it (savepoint, or the batch's COMMIT
 * failing): the undo journal then forgets the block in memory too, but keeps `next` where it
 * was, so an id handed out inside the rolled-back job is not handed out again in this process.
 */
export function createIdBlocks(db: Db, journal: UndoJournal) {
  const read = db.prepare<{ name: string }, { value: number }>(
    'SELECT value FROM sequences WHERE name = @name',
  )
  // `used`: the highest id this process handed out; the reservation starts above it.
  const reserve = db.prepare<{ name: string; used: number; n: number }, { value: number }>(
    'UPDATE sequences SET value = max(value, @used) + @n WHERE name = @name RETURNING value',
  )
  const skip = db.prepare('UPDATE sequences SET value = max(value, @value) WHERE name = @name')
  const blocks = new Map<SequenceName, Block>()

  function take(name: SequenceName, n: number): number {
    let block = blocks.get(name)
    if (block === undefined) {
      const row = read.get({ name })
      if (!row) throw new Error(`unknown sequence ${name}`)
      block = { next: row.value + 1, limit: row.value }
      blocks.set(name, block)
    }
    const first = block.next
    if (first + n - 1 > block.limit) {
      const before = block.limit
      const size = Math.max(n, BLOCK[name])
      const limit = reserve.get({ name, used: first - 1, n: size })!.value
      const b = block
      block.limit = limit
      block.next = limit - size + 1
      journal.record(() => {
        b.limit = before
      })
    }
    const id = block.next
    block.next += n
    return id
  }

  return {
    /** Never hands out `value` or anything below it (ids given elsewhere, e.g. by the seed file). */
    skipPast(name: SequenceName, value: number): void {
      skip.run({ name, value })
      const block = blocks.get(name)
      // What is left of the block above `value` stays reserved; past its end, `take` reserves anew.
      if (block && block.next <= value) block.next = value + 1
    },
    /** Reserves `n` consecutive ids and returns the first. */
    next(name: SequenceName, n = 1): number {
      return take(name, n)
    },
  }
}
