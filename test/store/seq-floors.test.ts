import { describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/index.js'
import { databaseFile, openStore } from './file-store.js'

// An app's seqs are counted in memory, started from the largest seq of its rows (engine/item-seqs.ts).
// Once a reset, an import or a removal has deleted the rows that held the largest, memory alone
// knew it: a restart (or memory letting the counter go, past 10 000 apps) read a smaller one and
// handed seqs out again. The counter is kept in SQLite as the rows go (migration 028).

const append = (store: Store, appKey: string) =>
  store.write({ announces: ['clock.moved'] }, () =>
    store.events.append({ appKey, type: 'clock.moved', data: {}, at: 0 }),
  )

describe('an app whose rows were deleted', () => {
  it('goes on above the seqs it handed out, after a restart, whether its rows went at once or a chunk at a time', async () => {
    const path = databaseFile('seq-floors')
    const first = openStore(path)
    first.store.db.exec(`
      INSERT INTO developers (dev_key, dev_secret) VALUES ('dev', 'secret');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'dev', 0), ('b', 's', 'dev', 0);
    `)
    for (let i = 0; i < 5; i++) await append(first.store, 'a')
    for (let i = 0; i < 3; i++) await append(first.store, 'b')
    expect(await append(first.store, 'a')).toBe(6)
    expect(await append(first.store, 'b')).toBe(4)
    // a: at once (a removal, a reset); b: a chunk at a time, one row per write (an import).
    await first.store.write(() => first.store.appRows.remove('a'))
    const removal = first.store.appDocument.removal
    let from = 0
    for (;;) {
      const { table, more } = await first.store.write(() => removal.step('b', 1, from))
      from = table
      if (!more) break
    }
    expect(first.store.db.prepare("SELECT count(*) AS n FROM events WHERE app_key = 'b'").get()).toEqual({
      n: 0,
    })
    first.close()

    const second = openStore(path)
    second.store.db.exec(
      "INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'dev', 0)",
    )
    expect(await append(second.store, 'a')).toBe(7)
    expect(await append(second.store, 'b')).toBe(5)
    second.close()
  })

  it('keeps no floor of a write that rolled back', async () => {
    const path = databaseFile('seq-floors')
    const { store, close } = openStore(path)
    store.db.exec(`
      INSERT INTO developers (dev_key, dev_secret) VALUES ('dev', 'secret');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'dev', 0);
    `)
    await append(store, 'a')
    await expect(
      store.write(() => {
        store.appRows.remove('a')
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(store.db.prepare('SELECT count(*) AS n FROM seq_floors').get()).toEqual({ n: 0 })
    expect(await append(store, 'a')).toBe(2)
    close()
  })
})
