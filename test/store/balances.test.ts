import { describe, expect, it } from 'vitest'
import { industryBalance } from '../fixtures/balances.js'
import { APP_KEY, createTestApp, newKey } from '../helpers.js'

// Balances are held in memory (balances.ts): read once, then changed with the write that charges
// them, and taken back with a job or a batch that rolls back (undo.ts).

describe('balances in memory', () => {
  const industry = industryBalance

  it('follow a charge at once, and take back the charge of a job that fails', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    await store.write(() => store.apps.charge(app0, 'industry', 2))
    expect(industry(app)).toEqual({ memory: before - 2, row: before - 2 })
    await expect(
      store.write(() => {
        expect(store.apps.charge(app0, 'industry', 3)).toBe(true)
        expect(store.apps.balances(APP_KEY)!.industry).toBe(before - 5)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(industry(app)).toEqual({ memory: before - 2, row: before - 2 })
  })

  it('keep the charges of the jobs that succeed in a batch where another fails', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    // Queued in one turn: one batch, one transaction, a savepoint each.
    const outcomes = await Promise.allSettled([
      store.write(() => store.apps.charge(app0, 'industry', 1)),
      store.write(() => {
        store.apps.charge(app0, 'industry', 10)
        throw new Error('this one only')
      }),
      store.write(() => store.apps.charge(app0, 'industry', 1)),
    ])
    expect(outcomes.map(o => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(industry(app)).toEqual({ memory: before - 2, row: before - 2 })
  })

  it('take back a charge inside a nested transaction that rolls back, and keep the job’s own', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    await store.write(() => {
      store.apps.charge(app0, 'industry', 1)
      expect(() =>
        store.transaction(() => {
          store.apps.charge(app0, 'industry', 4)
          throw new Error('inner')
        }),
      ).toThrow('inner')
    })
    expect(industry(app)).toEqual({ memory: before - 1, row: before - 1 })
  })

  it('of a developer removed and made again are the new ones', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const devKey = newKey('dv')
    const dev = { devKey, devSecret: newKey('ds'), frozen: false }
    const some = { balance: 5, voice: null, industry: 7, market: null }
    await store.write(() => store.apps.saveDeveloper({ ...dev, balances: some }))
    expect(store.apps.developerBalances(devKey)).toEqual(some)
    await store.write(() => store.apps.removeDeveloper(devKey))
    const other = { balance: 1, voice: 2, industry: 3, market: 4 }
    await store.write(() => store.apps.saveDeveloper({ ...dev, balances: other }))
    expect(store.apps.developerBalances(devKey)).toEqual(other)
  })

  it('are frozen: a caller cannot change what the next request reads', async () => {
    const { app } = await createTestApp()
    const b = app.store.apps.balances(APP_KEY)!
    expect(() => {
      ;(b as { industry: number | null }).industry = 0
    }).toThrow(TypeError)
  })
})
