import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { duePushSchedules } from '../../src/push/schedules/due.js'
import { firePushSchedule } from '../../src/push/schedules/fire.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { at, create, DAY, firings, periodical } from '../push/schedule-helpers.js'

// JPush schedules fire each occurrence exactly once (jpush-api.md §8): across restarts on a file
// database, under racing ticks, over a clock jump that passes several occurrences, and when a
// firing is interrupted half-way. No sleeps: the test clock moves, and ticks are called.

const opened: SandboxApp[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map(a => a.close()))
})

async function open(database: string, clock: ManualClock): Promise<SandboxApp> {
  const app = await buildApp(testConfig({ database }), { clock })
  opened.push(app)
  return app
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'jpush-sched-')), 'sandbox.db')

/** Daily at 09:00 Beijing from the test clock's start (08:00 Beijing), for a month. */
const daily = () => periodical({ start: '2026-01-01 08:00:00', end: '2026-02-01 00:00:00', time: '09:00:00' })
const days = (...ds: string[]) => ds.map(d => at(`2026-01-${d} 09:00:00`))

describe('exactly once', () => {
  it('survives restarts on the same file: occurrences missed while down fire once each, in order', async () => {
    const file = tempFile()
    const clock = new ManualClock()
    const first = await open(file, clock)
    const id = await create(first, daily())
    await first.close()

    clock.advance(3 * DAY) // 01-04 08:00 Beijing: three occurrences passed while the sandbox was down
    const second = await open(file, clock) // awaiting buildApp readies it: the scheduler starts
    const fired = await firings(second, id)
    expect(fired.map(f => f.ts)).toEqual(days('01', '02', '03'))
    expect(new Set(fired.map(f => f.msg_id)).size).toBe(3)
    await second.close()

    const third = await open(file, clock)
    await third.scheduler.tick()
    expect((await firings(third, id)).map(f => f.ts)).toEqual(days('01', '02', '03'))
    clock.advance(DAY)
    await third.scheduler.tick()
    expect((await firings(third, id)).map(f => f.ts)).toEqual(days('01', '02', '03', '04'))
  })

  it('racing ticks after a jump of the clock fire every occurrence once, in time order across tasks', async () => {
    const { app, clock } = await createTestApp()
    const a = await create(app, daily())
    const noon = periodical({
      start: '2026-01-01 08:00:00',
      end: '2026-02-01 00:00:00',
      time: '12:00:00',
      frequency: 2,
    })
    const b = await create(app, noon)
    clock.advance(5 * DAY) // no clock move through the API: one tick sees all eight occurrences due
    await Promise.all([
      app.scheduler.tick(),
      app.scheduler.tick(),
      app.scheduler.tick(),
      app.scheduler.tick(),
    ])
    const fa = await firings(app, a)
    const fb = await firings(app, b)
    expect(fa.map(f => f.ts)).toEqual(days('01', '02', '03', '04', '05'))
    expect(fb.map(f => f.ts)).toEqual(days('01', '03', '05').map(t => t + 3 * 3_600_000))
    // msg_ids come from one sequence: a 01 09:00, b 01 12:00, a 02, a 03, b 03… as the times are.
    const byTime = [...fa, ...fb].sort((x, y) => x.ts - y.ts).map(f => f.msg_id)
    expect(byTime).toEqual([...byTime].sort())
    const pushes = await call(app, 'GET', '/_sandbox/push/messages')
    expect(pushes.body.messages).toHaveLength(8)
  })

  it('a firing interrupted half-way leaves no trace, and the occurrence still fires once', async () => {
    const { app, clock } = await createTestApp()
    const id = await create(app, daily())
    clock.advance(2 * 3_600_000)
    const deps = { store: app.store, clock, config: testConfig(), sensitiveWords: [] }
    const due = at('2026-01-01 09:00:00')
    // The claim, the push and its record share one transaction: a crash before the commit undoes all.
    expect(() =>
      app.store.transaction(duePushSchedules, () => {
        expect(firePushSchedule(deps, APP_KEY, id, due)?.firing.errorCode).toBe(0)
        throw new Error('killed')
      }),
    ).toThrow('killed')
    expect(await firings(app, id)).toEqual([])
    expect((await call(app, 'GET', '/_sandbox/push/messages')).body.messages).toEqual([])
    await app.scheduler.tick()
    expect((await firings(app, id)).map(f => f.ts)).toEqual([due])
    expect(
      app.store.transaction(duePushSchedules, () => firePushSchedule(deps, APP_KEY, id, due)),
    ).toBeUndefined()
  })

  it('a task whose stored push no longer reads is marked 1000 and stops; the others keep firing', async () => {
    const { app, clock } = await createTestApp()
    const broken = await create(app, daily())
    const fine = await create(app, daily())
    app.store.db.prepare("UPDATE push_schedules SET push_json = 'not json' WHERE schedule_id = ?").run(broken)
    clock.advance(2 * DAY)
    await app.scheduler.tick()
    expect((await firings(app, fine)).map(f => f.ts)).toEqual(days('01', '02'))
    const marked = app.store.db
      .prepare('SELECT error_code FROM push_schedule_firings WHERE schedule_id = ?')
      .all(broken)
    expect(marked).toEqual([{ error_code: 1000 }])
  })
})
