import { describe, expect, it } from 'vitest'
import { industryBalance } from '../fixtures/balances.js'
import { APP_KEY, createTestApp } from '../helpers.js'

// Write jobs run without a savepoint of their own (writer.ts decides; the caller says nothing).
// One that throws before writing fails alone; one that throws after writing (SQLite failing
// half-way, a check after the statement) makes the batch run again, a savepoint per job: either
// way the outcomes are those of a savepoint per job.

describe('write jobs without a savepoint', () => {
  const industry = industryBalance

  it('a refusal before any write fails alone; the batch around it is kept', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    const outcomes = await Promise.allSettled([
      store.write(() => store.apps.charge(app0, 'industry', 1)),
      store.write(() => {
        throw new Error('refused')
      }),
      store.write(() => store.apps.charge(app0, 'industry', 1)),
    ])
    expect(outcomes.map(o => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(industry(app)).toEqual({ memory: before - 2, row: before - 2 })
  })

  it('a job that throws after it wrote takes back its write; the others are kept, each once', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    const runs = [0, 0, 0]
    const outcomes = await Promise.allSettled([
      store.write(() => {
        runs[0]!++
        return store.apps.charge(app0, 'industry', 1)
      }),
      store.write(() => {
        runs[1]!++
        store.apps.charge(app0, 'industry', 10)
        throw new Error('half-way')
      }),
      store.write(() => {
        runs[2]!++
        return store.apps.charge(app0, 'industry', 1)
      }),
    ])
    expect(outcomes.map(o => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('half-way')
    expect(industry(app)).toEqual({ memory: before - 2, row: before - 2 })
    // The batch stopped at the job that threw and ran again whole: the jobs up to it twice (their
    // first run rolled back), the one after it once.
    expect(runs).toEqual([2, 2, 1])
  })
})
