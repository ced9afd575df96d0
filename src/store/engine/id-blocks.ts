import type { Db } from './db.js'
import type { UndoJournal } from './undo.js'

export type SequenceName = 'msg_id' | 'temp_id' | 'sign_id' | 'push_msg_id' | 'callback_id' | 'reply_id'

/**
 * The largest id each sequence may ever hand out: the range the vendor's clients read. temp_id
 * and sign_id are 32-bit ints in the Java and C# clients (jsms-api.md §1.7, sms/fields.ts); a push
 * msg_id is `181` and a 14-digit counter (push/send/delivery/dispatch.ts); an SMS msg_id, a callback's
 * and a reply's id must stay exact JavaScript numbers (msgIdKey, the control plane's lists).
 */
export const SEQUENCE_MAX: Record<SequenceName, number> = {
  msg_id: Number.MAX_SAFE_INTEGER,
  temp_id: 2 ** 31 - 1,
  sign_id: 2 ** 31 - 1,
  push_msg_id: 10 ** 14 - 1,
  callback_id: Number.MAX_SAFE_INTEGER,
  reply_id: Number.MAX_SAFE_INTEGER,
}

/**
 * The largest id a row given from outside (an app's imported document) may hold: half the range.
 * The sequence skips past the ids it is given, so the other half stays for every tenant: no
 * document can move a sequence to where the ids it hands out next are refused (a temp_id past
 * 2^31 answers 50013) or no longer exact.
 */
export const importableMax = (name: SequenceName): number => Math.floor(SEQUENCE_MAX[name] / 2)

/**
 * How many ids of a sequence one write of its row reserves. Every SMS and every push takes an id:
 * those are reserved a thousand at a time, so a send runs no statement for its id (an UPDATE …
 * RETURNING was 4 % of a send's CPU: docs/performance.md). Templates and signatures are rare.
 */
const BLOCK: Record<SequenceName, number> = {
  msg_id: 1000,
  push_msg_id: 1000,
  temp_id: 1,
  sign_id: 1,
  callback_id: 1000,
  reply_id: 100,
}

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
