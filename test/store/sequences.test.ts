import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/index.js'
import { databaseFile, openStore } from './file-store.js'

// msg_ids and push msg_ids are reserved in blocks (sequences.ts): the row is written by the job
// that takes the first id of a block, later ids come from memory. Ids never repeat: not after a
// restart, not after a job or a nested transaction that rolled back its reservation.

const storedValue = (store: Store, name: string) =>
  (store.db.prepare('SELECT value FROM sequences WHERE name = ?').get(name) as { value: number }).value

describe('id sequences reserved in blocks', () => {
  it('hand out consecutive ids, write the row once per block, and go on past it after a restart', async () => {
    const path = databaseFile('sequences')
    const first = openStore(path)
    const start = storedValue(first.store, 'msg_id')
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push(await first.store.write(() => first.store.sequences.next('msg_id')))
    expect(ids).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5])
    // One reservation covers them all.
    expect(storedValue(first.store, 'msg_id')).toBe(start + 1000)
    first.close()

    const second = openStore(path)
    const after = await second.store.write(() => second.store.sequences.next('msg_id'))
    expect(after).toBe(start + 1001)
    // More than the block has left: a reservation of its own past the block (the rest is a gap).
    const many = await second.store.write(() => second.store.sequences.next('msg_id', 1500))
    expect(many).toBe(start + 2001)
    expect(await second.store.write(() => second.store.sequences.next('msg_id'))).toBe(start + 3501)
    expect(storedValue(second.store, 'msg_id')).toBeGreaterThanOrEqual(start + 3501)
    second.close()
  })

  it('never hand out again an id of a job that rolled back its reservation', async () => {
    const path = databaseFile('sequences')
    const { store, close } = openStore(path)
    const start = storedValue(store, 'push_msg_id')
    const seen: number[] = []
    await expect(
      store.write(() => {
        seen.push(store.sequences.next('push_msg_id'))
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    // It threw after it wrote: its batch ran again, a savepoint per job (writer.ts), and the rerun
    // did not hand out the id its first run saw.
    expect(seen).toEqual([start + 1, start + 2])
    // The reservation went with the job…
    expect(storedValue(store, 'push_msg_id')).toBe(start)
    // …and the next job reserves again, above the ids the failed one saw.
    const next = await store.write(() => store.sequences.next('push_msg_id'))
    expect(next).toBe(start + 3)
    expect(storedValue(store, 'push_msg_id')).toBeGreaterThanOrEqual(next)

    // A nested transaction that reserved and rolled back inside a job that succeeds.
    const afterBlock = await store.write(() => {
      store.sequences.next('push_msg_id', 1200) // past the block: a new reservation…
      return 0
    })
    expect(afterBlock).toBe(0)
    let inner = 0
    const outer = await store.write(() => {
      expect(() =>
        store.transaction(() => {
          inner = store.sequences.next('push_msg_id', 2000)
          throw new Error('inner')
        }),
      ).toThrow('inner')
      return store.sequences.next('push_msg_id')
    })
    expect(outer).toBeGreaterThan(inner + 1999)
    expect(storedValue(store, 'push_msg_id')).toBeGreaterThanOrEqual(outer)
    close()

    // After a restart the ids go on above every id handed out.
    const again = openStore(path)
    expect(await again.store.write(() => again.store.sequences.next('push_msg_id'))).toBeGreaterThan(outer)
    again.close()
  })

  it('skip past ids given elsewhere (seed files) even within a block', async () => {
    const { store, close } = openStore(':memory:')
    const start = await store.write(() => store.sequences.next('msg_id'))
    store.transaction(() => store.sequences.skipPast('msg_id', start + 10))
    expect(await store.write(() => store.sequences.next('msg_id'))).toBe(start + 11)
    expect(storedValue(store, 'msg_id')).toBeGreaterThanOrEqual(start + 11)
    close()
  })
})
