import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { dueSchedules } from '../../src/sms/schedules/due.js'
import { fireSchedule } from '../../src/sms/schedules/fire.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { HOUR, sendTimeIn, sentTo } from '../sms/schedule-helpers.js'

const opened: SandboxApp[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map(a => a.close()))
})

async function open(database: string, clock: ManualClock): Promise<SandboxApp> {
  const app = await buildApp(testConfig({ database }), { clock })
  opened.push(app)
  return app
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'jsms-sched-')), 'sandbox.db')

async function schedule(app: SandboxApp, mobile: string, inMs = HOUR): Promise<string> {
  const res = await call(app, 'POST', '/v1/schedule', {
    send_time: await sendTimeIn(app, inMs),
    mobile,
    temp_id: 2,
    temp_para: { order: 'R', days: '1' },
  })
  expect(res.status).toBe(200)
  return res.body.schedule_id
}

describe('exactly-once firing', () => {
  it('survives a restart on the same database file: an overdue task fires right after start, once', async () => {
    const file = tempFile()
    const clock = new ManualClock()
    const first = await open(file, clock)
    const id = await schedule(first, '13800138201')
    await first.close()

    clock.advance(2 * HOUR) // time passes while the sandbox is down
    const second = await open(file, clock) // awaiting buildApp readies it: the scheduler starts
    const sent = await sentTo(second, '13800138201')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.schedule_id).toBe(id)
    await second.close()

    const third = await open(file, clock)
    await third.scheduler.tick()
    expect(await sentTo(third, '13800138201')).toHaveLength(1)
    expect((await call(third, 'DELETE', `/v1/schedule/${id}`)).body.error.code).toBe(50029)
  })

  it('pending work moved by the sandbox clock survives a restart too', async () => {
    const file = tempFile()
    const clock = new ManualClock()
    const first = await open(file, clock)
    await schedule(first, '13800138202', 2 * HOUR)
    await call(first, 'POST', '/_sandbox/clock', { advance_ms: HOUR })
    expect(await sentTo(first, '13800138202')).toEqual([])
    await first.close()

    const second = await open(file, clock)
    expect((await call(second, 'GET', '/_sandbox/clock')).body.offset_ms).toBe(HOUR)
    await call(second, 'POST', '/_sandbox/clock', { advance_ms: HOUR })
    expect(await sentTo(second, '13800138202')).toHaveLength(1)
  })

  it('sends once when ticks race', async () => {
    const { app, clock } = await createTestApp()
    await schedule(app, '13800138203')
    await schedule(app, '13800138204')
    clock.advance(HOUR)
    await Promise.all([
      app.scheduler.tick(),
      app.scheduler.tick(),
      app.scheduler.tick(),
      app.scheduler.tick(),
    ])
    expect(await sentTo(app, '13800138203')).toHaveLength(1)
    expect(await sentTo(app, '13800138204')).toHaveLength(1)
  })

  it('cannot fire twice from two sandboxes on the same file: the second one is refused', async () => {
    const file = tempFile()
    const clock = new ManualClock()
    const a = await open(file, clock)
    await expect(open(file, clock)).rejects.toThrow(
      `DB_PATH ${file} is in use by another jiguang-sandbox process`,
    )
    await schedule(a, '13800138205')
    clock.advance(HOUR)
    await Promise.all([a.scheduler.tick(), a.scheduler.tick()])
    expect(await sentTo(a, '13800138205')).toHaveLength(1)
  })

  it('a firing interrupted half-way leaves no trace, and the task still goes out once', async () => {
    const { app, clock } = await createTestApp()
    const id = await schedule(app, '13800138206')
    clock.advance(HOUR)
    const deps = { store: app.store, clock, config: testConfig(), sensitiveWords: [] }
    // The claim and the messages share one transaction: a crash before the commit undoes both.
    expect(() =>
      app.store.transaction(dueSchedules, () => {
        expect(fireSchedule(deps, APP_KEY, id)).toBe(true)
        throw new Error('killed')
      }),
    ).toThrow('killed')
    expect(await sentTo(app, '13800138206')).toEqual([])
    await app.scheduler.tick()
    expect(await sentTo(app, '13800138206')).toHaveLength(1)
    expect(app.store.transaction(dueSchedules, () => fireSchedule(deps, APP_KEY, id))).toBe(false)
  })
})

describe('the loop', () => {
  it('logs a failing task, marks it, and keeps firing the others', async () => {
    const { app, clock } = await createTestApp()
    const broken = await schedule(app, '13800138207')
    await schedule(app, '13800138208')
    // Corrupt one task behind the API's back: its parameters are no longer JSON.
    app.store.db
      .prepare("UPDATE schedule_recipients SET temp_para = 'not json' WHERE schedule_id = ?")
      .run(broken)
    clock.advance(HOUR)
    await app.scheduler.tick()
    expect(await sentTo(app, '13800138208')).toHaveLength(1)
    expect(await sentTo(app, '13800138207')).toEqual([])
    expect((await call(app, 'DELETE', `/v1/schedule/${broken}`)).body.error.code).toBe(50029)
  })

  it('stop() waits for the work in flight, and a stopped scheduler does nothing', async () => {
    const { app, clock } = await createTestApp()
    await schedule(app, '13800138209')
    clock.advance(HOUR)
    const ticking = app.scheduler.tick()
    await app.scheduler.stop()
    await ticking
    expect(await sentTo(app, '13800138209')).toHaveLength(1)
    await schedule(app, '13800138210', 1000)
    clock.advance(HOUR)
    await app.scheduler.tick()
    expect(await sentTo(app, '13800138210')).toEqual([])
  })
})
