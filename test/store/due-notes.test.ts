import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { queriesOf } from '../../src/scheduler/due-work.js'
import type { Callback } from '../../src/store/callbacks/outbox.js'
import { createDueIndex } from '../../src/store/engine/due.js'
import type { Store } from '../../src/store/index.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { addDevice, pushBody } from '../push/helpers.js'

// The due index's contract (src/store/engine/due.ts): the bound it keeps of each due query, and of
// each app's catch-up queries, is never later than the first row SQLite holds. Every method that
// creates due work or brings it forward says so (`due.note`, or `remap`); a method that forgot would
// leave the scheduler asleep past the work. Each row below is one such method, driven with the
// bounds known beforehand and the scheduler stopped (no tick asks SQLite again meanwhile).

const LATER = 100_000

type Run = (app: SandboxApp, now: number) => Promise<unknown>
const job =
  (fn: (s: Store, now: number) => unknown): Run =>
  (app, now) =>
    app.store.write(() => fn(app.store, now))

const templateInput = { template: '新{{order}}', type: 2 as const, ttl: 60, remark: '' }
const signInput = { sign: '新签名', type: 1, remark: '', images: 0 }
const task = (now: number, sendAt: number) => ({
  scheduleId: 'due-task',
  appKey: APP_KEY,
  batch: false,
  tempId: 2,
  signId: null,
  tag: null,
  sendAt: sendAt + now,
})
const pushTask = (now: number, nextDueAt: number) => ({
  scheduleId: 'due-push-task',
  appKey: APP_KEY,
  cid: null,
  name: 'n',
  enabled: true,
  kind: 'single' as const,
  trigger: {},
  push: {},
  endsAt: now + 10 * LATER,
  nextDueAt: now + nextDueAt,
  createdAt: now,
  updatedAt: now,
})
const sent = (app: SandboxApp) =>
  call(app, 'POST', '/v1/messages', {
    mobile: '13800138000',
    temp_id: 2,
    temp_para: { order: 'A', days: '1' },
  })
const claimed = (s: Store, now: number): Callback => {
  s.callbacks.enqueue(APP_KEY, 'SMS_REPORT', {}, now)
  return s.callbacks.claimDue(now, 1).claimed[0]!
}

let onTheWire: Callback | undefined
const cases: Array<{ name: string; setup?: Run; run: Run }> = [
  {
    name: 'templates.insert',
    run: job((s, now) =>
      s.templates.insert(
        { appKey: APP_KEY, tempId: 900, ...templateInput, status: 0, refuseReason: null, reviewAt: now + 10 },
        now,
      ),
    ),
  },
  {
    name: 'templates.update',
    run: job((s, now) => s.templates.update(APP_KEY, 2, templateInput, now + 10, now)),
  },
  {
    name: 'signs.insert',
    run: job((s, now) =>
      s.signs.insert(
        {
          appKey: APP_KEY,
          signId: 900,
          ...signInput,
          status: 0,
          isDefault: false,
          refuseReason: null,
          reviewAt: now + 10,
        },
        now,
      ),
    ),
  },
  { name: 'signs.update', run: job((s, now) => s.signs.update(APP_KEY, 1, signInput, now + 10, now)) },
  {
    name: 'templates.decide (its callback)',
    run: job((s, now) => s.templates.decide(APP_KEY, 2, 2, 'no', now)),
  },
  {
    name: 'signs.settleReviews (its callback)',
    setup: job((s, now) => s.signs.update(APP_KEY, 1, signInput, now + LATER, now)),
    run: job((s, now) => s.signs.settleReviews(APP_KEY, now + LATER)),
  },
  { name: 'schedules.insert', run: job((s, now) => s.schedules.insert(task(now, 10), [], now)) },
  {
    name: 'schedules.replace (brought forward)',
    setup: job((s, now) => s.schedules.insert(task(now, LATER), [], now)),
    run: job((s, now) => s.schedules.replace(task(now, 10), [], now)),
  },
  { name: 'reports.insert (a send)', run: sent },
  {
    name: 'pushDeliveries.insert (pending)',
    setup: async app =>
      addDevice(app, { platform: 'android', online: false, registration_id: 'dueoffline1' }),
    run: app => call(app, 'POST', '/v3/push', pushBody({ audience: { registration_id: ['dueoffline1'] } })),
  },
  {
    name: 'pushDeliveries.insert (SMS fallback)',
    setup: async app =>
      addDevice(app, {
        platform: 'android',
        online: false,
        mobile: '13900139000',
        registration_id: 'dueoffline2',
      }),
    run: app =>
      call(
        app,
        'POST',
        '/v3/push',
        pushBody({
          audience: { registration_id: ['dueoffline2'] },
          sms_message: { delay_time: 10, temp_id: 2, temp_para: { order: 'A', days: 1 } },
          options: { time_to_live: 86_400 },
        }),
      ),
  },
  {
    name: 'pushFanOut.insertSlice (a broadcast)',
    setup: async app => addDevice(app, { platform: 'android', online: false }),
    run: app => call(app, 'POST', '/v3/push', pushBody({ audience: 'all' })),
  },
  { name: 'pushSchedules.insert', run: job((s, now) => s.pushSchedules.insert(pushTask(now, 10))) },
  {
    name: 'pushSchedules.update (brought forward)',
    setup: job((s, now) => s.pushSchedules.insert(pushTask(now, LATER))),
    run: job((s, now) => s.pushSchedules.update(pushTask(now, 10))),
  },
  {
    name: 'callbacks.enqueue',
    run: job((s, now) => s.callbacks.enqueue(APP_KEY, 'SMS_REPORT', {}, now + 10)),
  },
  {
    name: 'callbacks.recordAttempt (a retry)',
    setup: job((s, now) => {
      onTheWire = claimed(s, now)
    }),
    run: job((s, now) => {
      const attempt = { attempt: 1, url: '', at: now, statusCode: 500, error: 'x' }
      s.callbacks.recordAttempt(onTheWire!, attempt, { delivered: false, next: now + 10 })
    }),
  },
  {
    name: 'callbacks.resetInterrupted',
    setup: job((s, now) => claimed(s, now - 5)),
    run: job(s => s.callbacks.resetInterrupted()),
  },
  {
    name: "apps.setClockOffset (every app's times remapped)",
    setup: job((s, now) => s.callbacks.enqueue(APP_KEY, 'SMS_REPORT', {}, now + 50_000)),
    run: job(s => s.apps.setClockOffset(APP_KEY, 40_000)),
  },
]

describe('a due bound is never late', () => {
  it.each(cases)('after $name', async ({ setup, run }) => {
    const { app, clock } = await createTestApp({ reviewDelayMs: LATER })
    await app.ready()
    await app.scheduler.stop() // no tick asks SQLite again behind the test's back
    const now = clock.now()
    await setup?.(app, now)
    const { store } = app
    const queries = queriesOf(app.scheduler.work)
    const perApp = queriesOf(app.scheduler.work.filter(w => w.catchUp))
    // The bounds are SQLite's own before the write, and known: what it does not note is not asked again.
    store.due.ran()
    store.due.ranFor(APP_KEY)
    store.due.earliest(queries)
    store.due.earliestOf(APP_KEY)
    const truth = createDueIndex(store.db, key => store.apps.get(key)?.clockOffsetMs ?? 0)
    const before = queries.map(q => truth.earliest([q]))

    const res = (await run(app, now)) as { status?: number } | undefined
    if (res?.status !== undefined) expect(res.status).toBe(200)

    const fresh = createDueIndex(store.db, key => store.apps.get(key)?.clockOffsetMs ?? 0)
    const after = queries.map(q => fresh.earliest([q]))
    expect(after, 'the case creates or brings forward due work').not.toEqual(before)
    queries.forEach((q, i) => {
      const t = after[i]
      if (t === undefined) return
      const bound = store.due.earliest([q])
      expect(bound, `query ${i}`).toBeDefined()
      expect(bound!, `query ${i}`).toBeLessThanOrEqual(t)
    })
    const own = fresh.nextOf(perApp, APP_KEY)
    if (own !== undefined) expect(store.due.earliestOf(APP_KEY)!).toBeLessThanOrEqual(own)
  })
})
