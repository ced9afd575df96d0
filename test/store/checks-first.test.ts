import { describe, expect, it } from 'vitest'
import { industryBalance } from '../fixtures/balances.js'
import { APP_KEY, createTestApp } from '../helpers.js'

// Jobs written with `checksFirst` (a send: every refusal before the first write) run without a
// savepoint of their own (writer.ts). One that throws before writing fails alone; one that throws
// after writing all the same (SQLite failing half-way) makes the batch run again, a savepoint per
// job: either way the outcomes are those of a savepoint per job.

describe('write jobs without a savepoint (checksFirst)', () => {
  const industry = industryBalance

  it('a refusal before any write fails alone; the batch around it is kept', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const before = industry(app).memory!
    const app0 = store.apps.get(APP_KEY)!
    const outcomes = await Promise.allSettled([
      store.write(() => store.apps.charge(app0, 'industry', 1), { checksFirst: true }),
      store.write(
        () => {
          throw new Error('refused')
        },
        { checksFirst: true },
      ),
      store.write(() => store.apps.charge(app0, 'industry', 1), { checksFirst: true }),
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
      store.write(
        () => {
          runs[0]!++
          return store.apps.charge(app0, 'industry', 1)
        },
        { checksFirst: true },
      ),
      store.write(
        () => {
          runs[1]!++
          store.apps.charge(app0, 'industry', 10)
          throw new Error('half-way')
        },
        { checksFirst: true },
      ),
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
